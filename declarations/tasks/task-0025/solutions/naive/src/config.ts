/** Settings from the environment; a missing one stops the connector with a clear message. */
export interface Config {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  onboardly: { baseUrl: string; username: string; password: string };
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

export function loadConfig(opts: { listener?: boolean } = {}): Config {
  return {
    baseUrl: required("TALENTFORGE_BASE_URL").replace(/\/$/, ""),
    clientId: required("TALENTFORGE_CLIENT_ID"),
    clientSecret: required("TALENTFORGE_CLIENT_SECRET"),
    webhookSecret: opts.listener ? required("TALENTFORGE_WEBHOOK_SECRET") : "",
    onboardly: { baseUrl: required("ONBOARDLY_BASE_URL").replace(/\/$/, ""), username: required("ONBOARDLY_USERNAME"), password: required("ONBOARDLY_PASSWORD") },
    outputDir: process.env.OUTPUT_DIR ?? "output",
    port: opts.listener ? Number(required("SERVE_PORT")) : 0,
  };
}
