import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether an error is a connection that broke before or during the answer (Interviewly's edge proxies drop some part-way). */
function brokenAnswer(err: unknown): boolean {
  return err instanceof TypeError || (err instanceof Error && /terminated|socket|ECONNRESET|other side closed/i.test(`${err.message} ${String(err.cause ?? "")}`));
}

/**
 * A small Interviewly API client: one OAuth access token (client credentials),
 * reused until shortly before it expires; 429s wait for Retry-After, 5xx are
 * retried a few times. An answer that breaks off part-way is sent again as it
 * was: a write carries its Idempotency-Key, so Interviewly answers the resend
 * with its stored answer instead of making the change twice.
 */
export class Interviewly {
  private token: { value: string; expiresAt: number } | null = null;
  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now() + 60_000) return this.token.value;
    const res = await fetch(`${this.config.baseUrl}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret }),
    });
    if (!res.ok) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { access_token: string; expires_in: number };
    this.token = { value: body.access_token, expiresAt: Date.now() + body.expires_in * 1000 };
    return this.token.value;
  }

  async get(path: string, query: Record<string, string> = {}): Promise<unknown> {
    const url = new URL(`${this.config.baseUrl}${path}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      let text: string;
      try {
        res = await fetch(url, { headers: { authorization: `Bearer ${await this.accessToken()}`, accept: "application/json" } });
        text = await res.text();
      } catch (err) {
        if (!brokenAnswer(err) || attempt > 4) throw err;
        await sleep(250 * attempt);
        continue;
      }
      if (res.status === 401 && attempt <= 2) {
        this.token = null;
        continue;
      }
      if (res.status === 429 && attempt <= 6) {
        await sleep(Number(res.headers.get("retry-after") ?? "1") * 1000);
        continue;
      }
      if (res.status >= 500 && attempt <= 4) {
        await sleep(250 * attempt);
        continue;
      }
      if (!res.ok) throw new Error(`GET ${url.pathname} failed: ${res.status} ${text}`);
      return JSON.parse(text);
    }
  }

  /**
   * One call with a JSON body (or none), answered as it came: status, headers
   * and parsed body. Renews an expired token, waits out a 429 and resends a
   * call whose answer broke off (same headers, so the same Idempotency-Key);
   * anything else, 5xx included, is the caller's to handle.
   */
  async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: unknown }> {
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      let text: string;
      try {
        res = await fetch(`${this.config.baseUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${await this.accessToken()}`, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        text = await res.text();
      } catch (err) {
        if (!brokenAnswer(err) || attempt > 4) throw err;
        await sleep(250 * attempt);
        continue;
      }
      if (res.status === 401 && attempt <= 2) {
        this.token = null;
        continue;
      }
      if (res.status === 429 && attempt <= 6) {
        await sleep(Number(res.headers.get("retry-after") ?? "1") * 1000);
        continue;
      }
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = text;
      }
      return { status: res.status, headers: res.headers, body: parsed };
    }
  }

  /** Every record of a list, page by page (offset paging, `total_entries`). */
  async listAll(path: string, query: Record<string, string> = {}): Promise<Record<string, unknown>[]> {
    const out: Record<string, unknown>[] = [];
    const limit = 100;
    for (let offset = 0; ; offset += limit) {
      const page = (await this.get(path, { ...query, limit: String(limit), offset: String(offset) })) as { entries: Record<string, unknown>[]; total_entries: number };
      out.push(...page.entries);
      if (!page.entries.length || offset + limit >= page.total_entries) return out;
    }
  }
}
