/** Settings from the environment; a missing one stops the job with a clear message. */
export interface Config {
  baseUrl: string;
  appToken: string;
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
    baseUrl: required("PAYGRADE_BASE_URL").replace(/\/$/, ""),
    appToken: required("PAYGRADE_APP_TOKEN"),
    outputDir: process.env.OUTPUT_DIR ?? "output",
  };
}
