/** Settings from the environment; a missing one stops the job with a clear message. */
export interface Config {
  baseUrl: string;
  username: string;
  password: string;
  outputDir: string;
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
    baseUrl: required("ROSTERLY_BASE_URL").replace(/\/$/, ""),
    username: required("ROSTERLY_USERNAME"),
    password: required("ROSTERLY_PASSWORD"),
    outputDir: process.env.OUTPUT_DIR ?? "output",
  };
}
