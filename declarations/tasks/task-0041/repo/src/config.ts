/** What the job reads from its environment. */
export interface Config {
  crewcall: { baseUrl: string; apiKey: string };
  sourcewell: { baseUrl: string; apiKey: string };
  outputDir: string;
}

export function loadConfig(): Config {
  const need = (name: string): string => {
    const v = process.env[name];
    if (!v) throw new Error(`${name} is not set`);
    return v;
  };
  return {
    crewcall: { baseUrl: need("CREWCALL_BASE_URL").replace(/\/+$/, ""), apiKey: need("CREWCALL_API_KEY") },
    sourcewell: { baseUrl: need("SOURCEWELL_BASE_URL").replace(/\/+$/, ""), apiKey: need("SOURCEWELL_API_KEY") },
    outputDir: need("OUTPUT_DIR"),
  };
}
