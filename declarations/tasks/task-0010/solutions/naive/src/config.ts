/** Settings from the environment; a missing one stops the connector with a clear message. */
export interface Config {
  baseUrl: string;
  appToken: string;
  hmacSecret: string;
  outputDir: string;
  /** The TallyHire export, relative to the working directory. */
  exportFile: string;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    console.error(`missing environment variable ${name}`);
    process.exit(2);
  }
  return value;
}

export function loadConfig(): Config {
  return {
    baseUrl: required("STAFFLINE_BASE_URL").replace(/\/$/, ""),
    appToken: required("STAFFLINE_APP_TOKEN"),
    hmacSecret: required("STAFFLINE_HMAC_SECRET"),
    outputDir: process.env.OUTPUT_DIR ?? "output",
    exportFile: "input/legacy-notes.json",
  };
}
