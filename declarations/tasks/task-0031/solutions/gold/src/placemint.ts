import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A page of a PlaceMint list. */
export interface Page<T> {
  results: T[];
  count: number;
  next_offset: number | null;
}

/**
 * A PlaceMint client that survives a working day: one token reused until PlaceMint refuses it
 * (tokens last a minute and can be revoked early), waits as long as a 429 asks, and retries
 * server errors and dropped connections a few times with a pause. A write carries an
 * Idempotency-Key that stays the same on every retry, so PlaceMint applies it once.
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
      const text = res ? await res.text().catch(() => null) : null;
      if (res?.ok && text !== null) return (JSON.parse(text) as { access_token: string }).access_token;
      if (res && text !== null && !(res.status === 429 || res.status >= 500)) throw new Error(`POST /oauth/token failed with ${res.status}`);
      if (attempt >= 5) throw new Error(`POST /oauth/token failed with ${res?.status ?? "a dropped connection"}`);
      await sleep(res ? waitMs(res, attempt) : 500 * attempt);
    }
  }

  async request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    let authFailures = 0;
    let failures = 0;
    for (;;) {
      this.token ??= await this.mint();
      const res = await fetch(`${this.config.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).catch(() => null);
      // A connection can drop after the status line: a body that never arrives is a failed request like a dropped one.
      const text = res ? await res.text().catch(() => null) : null;
      const json = (res?.headers.get("content-type") ?? "").includes("json");
      if (res?.ok && text !== null && (!json || parses(text))) return (json ? JSON.parse(text) : text) as T;
      if (res?.status === 401 && authFailures < 2) {
        authFailures += 1;
        this.token = null;
        continue;
      }
      if (res?.status === 429) {
        await sleep(waitMs(res, 1));
        continue;
      }
      if ((!res || text === null || res.status >= 500 || (res.ok && json)) && failures < 5) {
        failures += 1;
        await sleep(500 * failures);
        continue;
      }
      throw new Error(`${method} ${path} failed with ${res?.status ?? "a dropped connection"} ${text ?? ""}`.trim());
    }
  }

  /**
   * Every record of a list. PlaceMint's lists are offset pages that shift when records move
   * while we read, so a crawl can see a record twice and miss another: a read is complete only
   * when it holds as many distinct records as PlaceMint counts, else it is read again.
   */
  async listAll<T extends { id: string }>(path: string): Promise<T[]> {
    const seen = new Map<string, T>();
    for (let pass = 1; pass <= 5; pass++) {
      let count = 0;
      let offset: number | null = 0;
      while (offset !== null) {
        const page: Page<T> = await this.request<Page<T>>("GET", `${path}?limit=100&offset=${offset}`);
        for (const r of page.results) seen.set(r.id, r);
        count = page.count;
        offset = page.results.length ? page.next_offset : null;
      }
      if (seen.size >= count) return [...seen.values()];
      console.error(`${path}: read ${seen.size} distinct records of ${count}; the list moved under us, reading it again`);
    }
    throw new Error(`${path}: could not read a complete list`);
  }
}

/** Whether a body is whole JSON (a cut connection can leave half of it). */
function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function waitMs(res: Response, attempt: number): number {
  const s = Number(res.headers.get("retry-after"));
  return Number.isFinite(s) && s > 0 ? s * 1000 + 100 : 500 * attempt;
}
