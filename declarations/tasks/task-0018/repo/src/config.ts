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

/** `api`: the command calls TalentLoop's REST API; `webhooks`: it verifies deliveries. */
export function loadConfig(needs: { api?: boolean; webhooks?: boolean } = {}): Config {
  const optional = (name: string) => process.env[name] ?? "";
  return {
    baseUrl: (needs.api ? required("TALENTLOOP_BASE_URL") : optional("TALENTLOOP_BASE_URL")).replace(/\/$/, ""),
    clientId: needs.api ? required("TALENTLOOP_CLIENT_ID") : optional("TALENTLOOP_CLIENT_ID"),
    clientSecret: needs.api ? required("TALENTLOOP_CLIENT_SECRET") : optional("TALENTLOOP_CLIENT_SECRET"),
    webhookSecret: needs.webhooks ? required("TALENTLOOP_WEBHOOK_SECRET") : optional("TALENTLOOP_WEBHOOK_SECRET"),
    outputDir: process.env.OUTPUT_DIR ?? "output",
    port: Number(process.env.SERVE_PORT ?? 8080),
  };
}
