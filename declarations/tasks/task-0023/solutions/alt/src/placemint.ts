import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A page of a PlaceMint list. */
export interface Page<T> {
  results: T[];
  count: number;
  next_offset: number | null;
}

/** A failed write whose outcome is unknown: PlaceMint may or may not have applied it. */
export class UnknownOutcome extends Error {}

/**
 * A PlaceMint client: one token until it is refused, waits out 429s, retries failed reads. A
 * write is sent once; when its answer is a server error or never comes, the caller is told
 * the outcome is unknown and settles it by reading PlaceMint back.
 */
export class PlaceMintClient {
  private readonly config: Config;
  private token: string | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  private async mint(): Promise<string> {
    const res = await fetch(`${this.config.baseUrl}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret }),
    });
    if (!res.ok) throw new Error(`POST /oauth/token failed with ${res.status}`);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const write = method !== "GET";
    for (let attempt = 1; ; attempt++) {
      this.token ??= await this.mint();
      let res: Response;
      try {
        res = await fetch(`${this.config.baseUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (err) {
        if (write) throw new UnknownOutcome(`${method} ${path}: connection lost`);
        if (attempt >= 5) throw err;
        await sleep(400 * attempt);
        continue;
      }
      if (res.ok) return (await res.json()) as T;
      if (res.status === 401 && attempt < 4) {
        this.token = null;
        continue;
      }
      if (res.status === 429) {
        await sleep((Number(res.headers.get("retry-after")) || 1) * 1000 + 50);
        continue;
      }
      if (res.status >= 500) {
        if (write) throw new UnknownOutcome(`${method} ${path} answered ${res.status}`);
        if (attempt < 5) {
          await sleep(400 * attempt);
          continue;
        }
      }
      throw new Error(`${method} ${path} failed with ${res.status}: ${await res.text()}`);
    }
  }

  /** One pass over a list, at the default page size. */
  private async crawl<T extends { id: string }>(path: string): Promise<Map<string, T>> {
    const out = new Map<string, T>();
    for (let offset: number | null = 0; offset !== null; ) {
      const page: Page<T> = await this.request<Page<T>>("GET", offset ? `${path}?offset=${offset}` : path);
      for (const r of page.results) out.set(r.id, r);
      offset = page.results.length ? page.next_offset : null;
    }
    return out;
  }

  /** Every record of a list: crawled until two passes in a row see the same records. */
  async listAll<T extends { id: string }>(path: string): Promise<T[]> {
    let prev = await this.crawl<T>(path);
    for (let pass = 2; pass <= 6; pass++) {
      const next = await this.crawl<T>(path);
      const same = next.size === prev.size && [...next.keys()].every((id) => prev.has(id));
      if (same) return [...next.values()];
      prev = next;
    }
    throw new Error(`${path} never read the same twice`);
  }
}
