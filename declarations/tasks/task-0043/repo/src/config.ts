/** What the job reads from its environment. */
export interface Config {
  baseUrl: string;
  apiKey: string;
  outputDir: string;
}

export function loadConfig(): Config {
  const need = (name: string): string => {
    const v = process.env[name];
    if (!v) throw new Error(`${name} is not set`);
    return v;
  };
  return { baseUrl: need("SOURCEWELL_BASE_URL").replace(/\/+$/, ""), apiKey: need("SOURCEWELL_API_KEY"), outputDir: need("OUTPUT_DIR") };
}
