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
    baseUrl: required("ONBOARDLY_BASE_URL").replace(/\/$/, ""),
    username: required("ONBOARDLY_USERNAME"),
    password: required("ONBOARDLY_PASSWORD"),
    outputDir: process.env.OUTPUT_DIR ?? "output",
  };
}
