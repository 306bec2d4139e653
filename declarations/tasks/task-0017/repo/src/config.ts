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

/** `api`: the command calls TalentLoop's REST API; `webhooks`: it verifies deliveries. */
export function loadConfig(needs: { api?: boolean; webhooks?: boolean } = {}): Config {
  const pick = (name: string, needed: boolean | undefined) => (needed ? required(name) : (process.env[name] ?? ""));
  return {
    baseUrl: pick("TALENTLOOP_BASE_URL", needs.api).replace(/\/$/, ""),
    clientId: pick("TALENTLOOP_CLIENT_ID", needs.api),
    clientSecret: pick("TALENTLOOP_CLIENT_SECRET", needs.api),
    webhookSecret: pick("TALENTLOOP_WEBHOOK_SECRET", needs.webhooks),
    outputDir: process.env.OUTPUT_DIR ?? "output",
    port: Number(process.env.SERVE_PORT ?? 8080),
  };
}
