import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Records per list page (the API serves up to 500 since 2.3). */
const PAGE_SIZE = 500;
/** Attempts per request before a 429 or a 5xx is given up on. */
const ATTEMPTS = 3;

/** A record as TalentLoop's REST API returns it. */
export type ApiRecord = Record<string, unknown> & { id: string };

/** A TalentLoop answer the caller handles itself (2xx and 4xx). */
export interface Answer {
  status: number;
  body: unknown;
}

/**
 * TalentLoop REST client. One client-credentials token per process (tokens
 * live an hour and no command runs that long). 429 and 5xx answers are
 * retried: TalentLoop's error reference says server errors are safe to
 * retry, and a 429 says how long to wait.
 */
export class TalentLoopClient {
  private readonly config: Config;
  private token: string | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  private async accessToken(): Promise<string> {
    if (this.token) return this.token;
    const res = await fetch(`${this.config.baseUrl}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret }),
    });
    if (!res.ok) throw new Error(`POST /token failed with ${res.status}`);
    this.token = ((await res.json()) as { access_token: string }).access_token;
    return this.token;
  }

  /** Sends one request; 2xx and 4xx answers are the caller's, 429 and 5xx are retried, anything else throws. */
  async request(method: "GET" | "POST", path: string, opts: { query?: Record<string, string>; json?: unknown } = {}): Promise<Answer> {
    const query = new URLSearchParams(opts.query ?? {});
    const url = `${this.config.baseUrl}${path}${query.size ? `?${query}` : ""}`;
    for (let attempt = 1; ; attempt++) {
      const headers: Record<string, string> = { authorization: `Bearer ${await this.accessToken()}` };
      if (opts.json !== undefined) headers["content-type"] = "application/json";
      const res = await fetch(url, { method, headers, body: opts.json === undefined ? undefined : JSON.stringify(opts.json) });
      const body = await res.json().catch(() => null);
      if (res.status < 400 || (res.status < 500 && res.status !== 429 && res.status !== 401)) return { status: res.status, body };
      if ((res.status === 429 || res.status >= 500) && attempt < ATTEMPTS) {
        const after = Number(res.headers.get("retry-after"));
        await sleep(Number.isFinite(after) && after > 0 ? after * 1000 : 500);
        continue;
      }
      throw new Error(`${method} ${path} failed with ${res.status}: ${JSON.stringify(body)}`);
    }
  }

  /** Every record of a list, following `next_cursor`. */
  async listAll(path: string): Promise<ApiRecord[]> {
    const records: ApiRecord[] = [];
    let cursor: string | null = null;
    for (;;) {
      const { status, body } = await this.request("GET", path, { query: { limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) } });
      if (status !== 200) throw new Error(`GET ${path} answered ${status}`);
      const page = body as { data: ApiRecord[]; next_cursor: string | null };
      records.push(...page.data);
      if (!page.next_cursor || page.data.length === 0) return records;
      cursor = page.next_cursor;
    }
  }
}
