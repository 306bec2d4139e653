/** Settings from the environment; a missing one stops the job with a clear message. */
export interface Config {
  baseUrl: string;
  appToken: string;
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
    baseUrl: required("BULLPEN_BASE_URL").replace(/\/$/, ""),
    appToken: process.env.BULLPEN_APP_TOKEN ?? "",
    clientId: process.env.BULLPEN_CLIENT_ID ?? "",
    clientSecret: process.env.BULLPEN_CLIENT_SECRET ?? "",
    outputDir: process.env.OUTPUT_DIR ?? "output",
  };
}
