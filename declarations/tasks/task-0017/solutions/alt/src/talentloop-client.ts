import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Records per list page: TalentLoop never serves more than 100, whatever `limit` asks for. */
const PAGE_SIZE = 100;
/** Attempts per request before a 429, a 5xx or a lost answer is given up on. */
const ATTEMPTS = 6;

/** A record as TalentLoop's REST API returns it. */
export type ApiRecord = Record<string, unknown> & { id: string };

/**
 * A TalentLoop answer the caller handles itself. `lost` is set when a write
 * got a 5xx or no answer at all: it may or may not have taken effect.
 */
export interface Answer {
  status: number;
  body: unknown;
  lost?: boolean;
}

/**
 * TalentLoop REST client. The client-credentials token is reused until it
 * expires and minted again when TalentLoop refuses it (tokens can be revoked
 * at any time). A 429 waits as `Retry-After` says. Reads are retried through
 * 5xx answers and dropped connections; a write is sent once, and a 5xx or a
 * lost answer is handed back as `lost` for the caller to settle.
 */
export class TalentLoopClient {
  private readonly config: Config;
  private token: { value: string; expiresAt: number } | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  private async accessToken(): Promise<string> {
    if (this.token && Date.now() < this.token.expiresAt - 60_000) return this.token.value;
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret }),
      }).catch(() => null);
      if (res?.ok) {
        const body = (await res.json()) as { access_token: string; expires_in?: number };
        this.token = { value: body.access_token, expiresAt: Date.now() + 1000 * (body.expires_in ?? 3600) };
        return this.token.value;
      }
      await res?.arrayBuffer();
      if ((!res || res.status === 429 || res.status >= 500) && attempt < ATTEMPTS) {
        await sleep(retryDelay(res, attempt));
        continue;
      }
      throw new Error(`POST /token failed with ${res?.status ?? "no answer"}`);
    }
  }

  /** Sends one request. 2xx and 4xx answers (but 401 and 429) are the caller's. */
  async request(method: "GET" | "POST", path: string, opts: { query?: Record<string, string>; json?: unknown } = {}): Promise<Answer> {
    const query = new URLSearchParams(opts.query ?? {});
    const url = `${this.config.baseUrl}${path}${query.size ? `?${query}` : ""}`;
    let renewed = false;
    for (let attempt = 1; ; attempt++) {
      const headers: Record<string, string> = { authorization: `Bearer ${await this.accessToken()}` };
      if (opts.json !== undefined) headers["content-type"] = "application/json";
      const res = await fetch(url, { method, headers, body: opts.json === undefined ? undefined : JSON.stringify(opts.json) }).catch(() => null);
      if (!res) {
        if (method !== "GET") return { status: 0, body: null, lost: true };
        if (attempt < ATTEMPTS) {
          await sleep(retryDelay(null, attempt));
          continue;
        }
        throw new Error(`${method} ${path}: no answer`);
      }
      const body = await res.json().catch(() => null);
      if (res.status === 401 && !renewed) {
        // Revoked or expired: one fresh token, then the same request again.
        renewed = true;
        this.token = null;
        continue;
      }
      if (res.status === 429 && attempt < ATTEMPTS) {
        await sleep(retryDelay(res, attempt));
        continue;
      }
      if (res.status >= 500) {
        if (method !== "GET") return { status: res.status, body, lost: true };
        if (attempt < ATTEMPTS) {
          await sleep(retryDelay(res, attempt));
          continue;
        }
      }
      if (res.status < 500 && res.status !== 401 && res.status !== 429) return { status: res.status, body };
      throw new Error(`${method} ${path} failed with ${res.status}: ${JSON.stringify(body)}`);
    }
  }

  /** Every record of a list, following `next_cursor` until it is null. A failed page is retried with its own cursor. */
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

/** How long to wait before the next attempt: as `Retry-After` says, else a short exponential backoff. */
function retryDelay(res: Response | null, attempt: number): number {
  const after = Number(res?.headers.get("retry-after"));
  return Number.isFinite(after) && after > 0 ? after * 1000 + 100 : 200 * 2 ** (attempt - 1);
}
