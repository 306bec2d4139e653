import type { Config } from "./config.ts";

/** A record as Rosterly serves it. */
export interface RosterlyRecord {
  id: string;
  [field: string]: unknown;
}

interface Page {
  items: RosterlyRecord[];
  total: number;
  next_offset: number | null;
}

/** The largest page Rosterly serves (its pagination page). */
const PAGE_SIZE = 200;
/** Tries of one request that fails with a server error before the run gives up. */
const SERVER_ERROR_TRIES = 5;
/** Reads of a list that changed while it was paged before the run gives up. */
const LIST_READS = 3;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Rosterly client: one session cookie for the run (signed in again when it
 * stops working), waits as long as a 429 asks, retries server errors, and
 * never reads a refusal as an empty answer: anything else is an error.
 */
export class RosterlyClient {
  private readonly config: Config;
  private cookie = "";
  /** Requests sent this run (the quota counts every one). */
  requests = 0;

  constructor(config: Config) {
    this.config = config;
  }

  async login(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      this.requests += 1;
      const res = await fetch(`${this.config.baseUrl}/api/v3/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: this.config.username, password: this.config.password }),
      });
      if (res.status === 429 || (res.status >= 500 && attempt < SERVER_ERROR_TRIES)) {
        await res.body?.cancel();
        await sleep(waitMs(res, attempt));
        continue;
      }
      if (!res.ok) throw new Error(`login failed with ${res.status}`);
      await res.body?.cancel();
      const sid = /rly_sid=([^;]+)/.exec(res.headers.get("set-cookie") ?? "");
      if (!sid) throw new Error("login answered without a session cookie");
      this.cookie = `rly_sid=${sid[1]}`;
      return;
    }
  }

  /** One page of a list, as JSON. */
  async page(path: string, params: Record<string, string>): Promise<Page> {
    const query = new URLSearchParams(params);
    const url = `${this.config.baseUrl}${path}${query.size ? `?${query}` : ""}`;
    let relogged = false;
    for (let attempt = 1; ; attempt++) {
      this.requests += 1;
      const res = await fetch(url, { headers: { cookie: this.cookie, accept: "application/json" } });
      if (res.ok) {
        // A connection dropped part-way through the answer is a failed read: try it again.
        const page = await res.json().catch(() => null);
        if (page) return page as Page;
        if (attempt >= SERVER_ERROR_TRIES) throw new Error(`GET ${path}: the answer was cut off ${attempt} times`);
        await sleep(waitMs(res, attempt));
        continue;
      }
      const text = await res.text();
      if (res.status === 429) {
        await sleep(waitMs(res, attempt));
        continue;
      }
      if (res.status === 401 && !relogged) {
        relogged = true;
        await this.login();
        continue;
      }
      if (res.status >= 500 && attempt < SERVER_ERROR_TRIES) {
        await sleep(waitMs(res, attempt));
        continue;
      }
      throw new Error(`GET ${path} failed with ${res.status}: ${text.slice(0, 200)}`);
    }
  }

  /**
   * Every record of a list, page by page. Records added while it is paged shift the offsets (one
   * record read twice, another never), so the pages must hold the list's `total` once each, or
   * the list is read again.
   */
  async all(path: string): Promise<RosterlyRecord[]> {
    for (let round = 1; round <= LIST_READS; round++) {
      const byId = new Map<string, RosterlyRecord>();
      let rows = 0;
      let total = -1;
      for (let offset: number | null = 0; offset !== null; ) {
        const page = await this.page(path, { offset: String(offset), limit: String(PAGE_SIZE) });
        for (const item of page.items) byId.set(item.id, item);
        rows += page.items.length;
        total = page.total;
        offset = page.next_offset;
      }
      if (rows === total && byId.size === total) return [...byId.values()];
    }
    throw new Error(`GET ${path}: the list kept changing while it was read (${LIST_READS} reads)`);
  }
}

/** How long to wait before trying again: Retry-After when given, else a short backoff. */
function waitMs(res: Response, attempt: number): number {
  const header = res.headers.get("retry-after");
  if (header !== null) {
    const s = Number(header);
    if (Number.isFinite(s)) return Math.max(0, s) * 1000 + 50;
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(0, at - Date.now()) + 50;
  }
  return Math.min(4000, 250 * 2 ** (attempt - 1));
}
