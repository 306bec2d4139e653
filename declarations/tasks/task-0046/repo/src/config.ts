/** What the relay needs from its environment. */
export interface Config {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  outputDir: string;
  port: number;
}

function need(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
}

export function loadConfig(): Config {
  return {
    baseUrl: need("INTERVIEWLY_BASE_URL").replace(/\/+$/, ""),
    clientId: need("INTERVIEWLY_CLIENT_ID"),
    clientSecret: need("INTERVIEWLY_CLIENT_SECRET"),
    webhookSecret: need("INTERVIEWLY_WEBHOOK_SECRET"),
    outputDir: need("OUTPUT_DIR"),
    port: Number(process.env.SERVE_PORT ?? 0),
  };
}
