/** Settings from the environment; a missing one stops the connector with a clear message. */
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

export function loadConfig(opts: { webhooks?: boolean; api?: boolean } = {}): Config {
  return {
    baseUrl: opts.api ? required("TALENTLOOP_BASE_URL").replace(/\/$/, "") : (process.env.TALENTLOOP_BASE_URL ?? "").replace(/\/$/, ""),
    clientId: opts.api ? required("TALENTLOOP_CLIENT_ID") : (process.env.TALENTLOOP_CLIENT_ID ?? ""),
    clientSecret: opts.api ? required("TALENTLOOP_CLIENT_SECRET") : (process.env.TALENTLOOP_CLIENT_SECRET ?? ""),
    webhookSecret: opts.webhooks ? required("TALENTLOOP_WEBHOOK_SECRET") : (process.env.TALENTLOOP_WEBHOOK_SECRET ?? ""),
    outputDir: process.env.OUTPUT_DIR ?? "output",
    port: Number(process.env.SERVE_PORT ?? 8080),
  };
}
