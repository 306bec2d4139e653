import type { Config } from "./config.ts";

export type ApiRecord = Record<string, unknown> & { id: string };

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long to wait before the next try: the server's `Retry-After` when it gives one, else a short backoff. */
function backoff(res: Response, attempt: number): number {
  const seconds = Number(res.headers.get("retry-after"));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 + 50 : Math.min(4000, 200 * 2 ** attempt);
}

/** TalentLoop REST client: one client-credentials token reused until it expires, 429/5xx retried in place. */
export class TalentLoop {
  private readonly config: Config;
  private token: { value: string; until: number } | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  private async bearer(): Promise<string> {
    if (this.token && Date.now() < this.token.until) return this.token.value;
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret }),
      });
      if (res.ok) {
        const body = (await res.json()) as { access_token: string; expires_in?: number };
        this.token = { value: body.access_token, until: Date.now() + 1000 * Math.max(60, (body.expires_in ?? 3600) - 60) };
        return this.token.value;
      }
      await res.arrayBuffer();
      if ((res.status === 429 || res.status >= 500) && attempt < 6) {
        await pause(backoff(res, attempt));
        continue;
      }
      throw new Error(`token request failed with ${res.status}`);
    }
  }

  /** GET with retries; 404 and 410 are answers, not failures. */
  async get(path: string, query: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
    const qs = new URLSearchParams(query).toString();
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}${path}${qs ? `?${qs}` : ""}`, { headers: { authorization: `Bearer ${await this.bearer()}`, accept: "application/json" } });
      const warning = res.headers.get("warning");
      if (warning) console.error(`GET ${path}: warning ${warning}`);
      const body = await res.json().catch(() => null);
      if (res.ok || res.status === 404 || res.status === 410) return { status: res.status, body };
      if (res.status === 401 && attempt < 3) {
        this.token = null;
        continue;
      }
      if ((res.status === 429 || res.status >= 500) && attempt < 8) {
        await pause(backoff(res, attempt));
        continue;
      }
      throw new Error(`GET ${path} failed with ${res.status}: ${JSON.stringify(body)}`);
    }
  }

  /**
   * Every record of a cursor-paged list. Pages hold at most 100 records
   * whatever `limit` asks, so the crawl follows `next_cursor` until it is null.
   * Answers null when the list itself does not exist (404 or 410).
   */
  async list(path: string, query: Record<string, string> = {}): Promise<ApiRecord[] | null> {
    const out: ApiRecord[] = [];
    let cursor: string | null = null;
    do {
      const { status, body } = await this.get(path, { ...query, limit: "100", ...(cursor ? { cursor } : {}) });
      if (status === 404 || status === 410) {
        if (out.length) throw new Error(`GET ${path} answered ${status} in the middle of a crawl`);
        return null;
      }
      const page = body as { data?: ApiRecord[]; next_cursor?: string | null };
      const rows = Array.isArray(page?.data) ? page.data : [];
      out.push(...rows);
      cursor = rows.length && page.next_cursor ? page.next_cursor : null;
    } while (cursor);
    return out;
  }
}
