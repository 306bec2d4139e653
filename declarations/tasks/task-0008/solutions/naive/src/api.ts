import { randomUUID } from "node:crypto";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(method: string, path: string, status: number, body: unknown) {
    super(`${method} ${path} failed with ${status}: ${JSON.stringify(body).slice(0, 300)}`);
    this.status = status;
    this.body = body;
  }
}

/** TalentForge REST client: client credentials, then a session (see the Authentication page). */
export class TalentForgeClient {
  private readonly baseUrl: string;
  private readonly clientId: string;
  private readonly clientSecret: string;
  private session: string | null = null;

  constructor(baseUrl: string, clientId: string, clientSecret: string) {
    this.baseUrl = baseUrl.replace(/\/$/, "");
    this.clientId = clientId;
    this.clientSecret = clientSecret;
  }

  async login(): Promise<void> {
    const form = new URLSearchParams({ grant_type: "client_credentials", client_id: this.clientId, client_secret: this.clientSecret });
    const tok = await fetch(`${this.baseUrl}/oauth/token`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: form });
    if (!tok.ok) throw new ApiError("POST", "/oauth/token", tok.status, await tok.text());
    const { access_token } = (await tok.json()) as { access_token: string };
    const ses = await fetch(`${this.baseUrl}/rest/login`, { method: "POST", headers: { Authorization: `Bearer ${access_token}` } });
    if (!ses.ok) throw new ApiError("POST", "/rest/login", ses.status, await ses.text());
    this.session = ((await ses.json()) as { session_token: string }).session_token;
  }

  /** One attempt. Writes carry an Idempotency-Key, as the docs recommend. */
  private async send(method: string, path: string, body?: unknown): Promise<Response> {
    if (!this.session) await this.login();
    const headers: Record<string, string> = { "X-TF-Session": this.session!, Accept: "application/json" };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      headers["Idempotency-Key"] = randomUUID();
    }
    return fetch(`${this.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }

  /** A call with retries: 429 after Retry-After, 5xx with backoff, a new session on 401. */
  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let relogged = false;
    for (let attempt = 1; ; attempt++) {
      const res = await this.send(method, path, body);
      if (res.status === 429 && attempt < 5) {
        await sleep(Number(res.headers.get("retry-after") ?? "1") * 1000);
        continue;
      }
      if (res.status >= 500 && attempt < 4) {
        await sleep(300 * attempt);
        continue;
      }
      if (res.status === 401 && !relogged) {
        relogged = true;
        this.session = null;
        continue;
      }
      const text = await res.text();
      const parsed = text ? JSON.parse(text) : null;
      if (!res.ok) throw new ApiError(method, path, res.status, parsed);
      return parsed as T;
    }
  }
}
