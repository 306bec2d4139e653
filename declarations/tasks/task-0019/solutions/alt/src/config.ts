/** Settings from the environment; a missing one stops the connector with a clear message. */
export interface Config {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  outputDir: string;
  port: number;
}

function need(name: string): string {
  const value = process.env[name];
  if (!value) {
    console.error(`missing environment variable ${name}`);
    process.exit(2);
  }
  return value;
}

export function loadConfig(command: string): Config {
  const api = command !== "serve";
  const optional = (name: string) => process.env[name] ?? "";
  return {
    baseUrl: (api ? need("TALENTLOOP_BASE_URL") : optional("TALENTLOOP_BASE_URL")).replace(/\/+$/, ""),
    clientId: api ? need("TALENTLOOP_CLIENT_ID") : optional("TALENTLOOP_CLIENT_ID"),
    clientSecret: api ? need("TALENTLOOP_CLIENT_SECRET") : optional("TALENTLOOP_CLIENT_SECRET"),
    webhookSecret: api ? optional("TALENTLOOP_WEBHOOK_SECRET") : need("TALENTLOOP_WEBHOOK_SECRET"),
    outputDir: process.env.OUTPUT_DIR ?? "output",
    port: Number(process.env.SERVE_PORT ?? 8080),
  };
}
