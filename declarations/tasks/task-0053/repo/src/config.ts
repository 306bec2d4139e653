/** Settings from the environment; a missing one stops the job with a clear message. */
export interface Config {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
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
    baseUrl: required("PLACEMINT_BASE_URL").replace(/\/$/, ""),
    clientId: required("PLACEMINT_CLIENT_ID"),
    clientSecret: required("PLACEMINT_CLIENT_SECRET"),
    outputDir: process.env.OUTPUT_DIR ?? "output",
  };
}
