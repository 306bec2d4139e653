import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A small Interviewly API client: one OAuth access token (client credentials),
 * reused until shortly before it expires; 429s wait for Retry-After, 5xx are
 * retried a few times.
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
      const token = await this.accessToken();
      let res: Response;
      let body: string;
      let data: unknown;
      try {
        // A connection that drops mid-answer is a failed read, like a 5xx: a GET is safe to send again.
        res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
        body = await res.text();
        if (res.ok) data = JSON.parse(body);
      } catch (err) {
        if (attempt > 4) throw err;
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
      if (!res.ok) throw new Error(`GET ${url.pathname} failed: ${res.status} ${body}`);
      return data;
    }
  }

  /**
   * Every record of a list, once each (offset paging, `total_entries`).
   * Recruiters book and move interviews while the back-fill reads, and a record
   * that moves to the head of the list shifts every offset past it: a single
   * crawl meets some records twice and steps over others. A crawl that ends
   * with fewer distinct records than the list's `total_entries` is read again,
   * keeping every record it met.
   */
  async listAll(path: string, query: Record<string, string> = {}): Promise<Record<string, unknown>[]> {
    const byId = new Map<string, Record<string, unknown>>();
    const limit = 100;
    let total = 0;
    for (let pass = 0; pass < 4; pass++) {
      for (let offset = 0; ; offset += limit) {
        const page = (await this.get(path, { ...query, limit: String(limit), offset: String(offset) })) as { entries: Record<string, unknown>[]; total_entries: number };
        for (const e of page.entries) byId.set(String(e.id), e);
        total = page.total_entries;
        if (!page.entries.length || offset + limit >= page.total_entries) break;
      }
      if (byId.size >= total) return [...byId.values()];
    }
    throw new Error(`${path} kept moving: ${byId.size} distinct records read, the list says ${total}`);
  }
}
