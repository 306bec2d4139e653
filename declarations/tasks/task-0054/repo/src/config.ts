/** What the job reads from its environment. */
export interface Config {
  baseUrl: string;
  username: string;
  password: string;
  outputDir: string;
}

export function loadConfig(): Config {
  const need = (name: string): string => {
    const v = process.env[name];
    if (!v) throw new Error(`${name} is not set`);
    return v;
  };
  return {
    baseUrl: need("ROSTERLY_BASE_URL").replace(/\/+$/, ""),
    username: need("ROSTERLY_USERNAME"),
    password: need("ROSTERLY_PASSWORD"),
    outputDir: need("OUTPUT_DIR"),
  };
}
