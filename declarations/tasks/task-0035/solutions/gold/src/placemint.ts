import type { Config } from "./config.ts";

/** A page of a PlaceMint list. */
export interface Page<T> {
  results: T[];
  count: number;
  next_offset: number | null;
}

/** PlaceMint serves at most 100 records a page, whatever `limit` asks for. */
const PAGE_SIZE = 100;
/** Passes over a list that moves under the read before the extract gives up. */
const MAX_PASSES = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The PlaceMint client: one access token until PlaceMint refuses it, a 429 waited out for as
 * long as it asks, a failed request retried in place (never the whole read), and lists
 * followed by `next_offset` until PlaceMint says they end.
 */
export class PlaceMintClient {
  private readonly config: Config;
  private token: string | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  private async mint(): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret }),
      }).catch(() => null);
      if (res?.ok) return ((await res.json()) as { access_token: string }).access_token;
      if ((res && res.status !== 429 && res.status < 500) || attempt >= 5) throw new Error(`POST /oauth/token failed with ${res?.status ?? "a dropped connection"}`);
      await sleep(res ? waitMs(res, attempt) : 500 * attempt);
    }
  }

  async get<T>(path: string): Promise<T> {
    let authFailures = 0;
    let failures = 0;
    for (;;) {
      this.token ??= await this.mint();
      const res = await fetch(`${this.config.baseUrl}${path}`, { headers: { authorization: `Bearer ${this.token}` } }).catch(() => null);
      if (res?.ok) return (await res.json()) as T;
      if (res?.status === 401 && authFailures < 2) {
        authFailures += 1;
        this.token = null;
        continue;
      }
      if (res?.status === 429) {
        await sleep(waitMs(res, 1));
        continue;
      }
      if ((!res || res.status >= 500) && failures < 5) {
        failures += 1;
        await sleep(500 * failures);
        continue;
      }
      throw new Error(`GET ${path} failed with ${res?.status ?? "a dropped connection"}`);
    }
  }

  /**
   * Every record of a list. Offsets shift when records are added or reordered during the read
   * (recruiters book while the extract runs), so a pass can see some records twice and miss
   * others: a pass short of PlaceMint's count is followed by another, the passes' records merged
   * (a later pass's copy wins). A read still short after a few passes is an error, never a result.
   */
  async list<T extends { id: string }>(path: string, params: Record<string, string> = {}): Promise<T[]> {
    const seen = new Map<string, T>();
    let count = 0;
    for (let pass = 1; pass <= MAX_PASSES; pass++) {
      for (let offset: number | null = 0; offset !== null; ) {
        const query = new URLSearchParams({ ...params, limit: String(PAGE_SIZE), offset: String(offset) });
        const page = await this.get<Page<T>>(`${path}?${query}`);
        for (const r of page.results) seen.set(r.id, r);
        count = page.count;
        offset = page.results.length ? page.next_offset : null;
      }
      if (seen.size >= count) return [...seen.values()];
    }
    throw new Error(`${path}: read ${seen.size} of ${count} records in ${MAX_PASSES} passes`);
  }
}

function waitMs(res: Response, attempt: number): number {
  const s = Number(res.headers.get("retry-after"));
  return Number.isFinite(s) && s > 0 ? s * 1000 + 100 : 500 * attempt;
}
