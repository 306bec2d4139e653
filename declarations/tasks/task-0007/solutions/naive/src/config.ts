/** Settings from the environment. */
export interface Config {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  outputDir: string;
  port: number;
}

export function loadConfig(): Config {
  return {
    baseUrl: (process.env.TALENTLOOP_BASE_URL ?? "").replace(/\/$/, ""),
    clientId: process.env.TALENTLOOP_CLIENT_ID ?? "",
    clientSecret: process.env.TALENTLOOP_CLIENT_SECRET ?? "",
    webhookSecret: process.env.TALENTLOOP_WEBHOOK_SECRET ?? "",
    outputDir: process.env.OUTPUT_DIR ?? "output",
    port: Number(process.env.SERVE_PORT ?? 8080),
  };
}
