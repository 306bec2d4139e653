/** Settings from the environment; a missing one stops the command with a clear message. */
export interface Config {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  outputDir: string;
  port: number;
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
    webhookSecret: process.env.PLACEMINT_WEBHOOK_SECRET ?? "",
    outputDir: process.env.OUTPUT_DIR ?? "output",
    port: Number(process.env.SERVE_PORT ?? 8080),
  };
}
