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

const SERVER_ERROR_TRIES = 5;
/** Whole reads of a list before giving up on one that keeps moving under the crawl. */
const LIST_PASSES = 12;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long to wait before trying again: Retry-After when given, else a short backoff. */
function waitMs(res: Response, attempt: number): number {
  const header = res.headers.get("retry-after");
  const s = header === null ? Number.NaN : Number(header);
  if (Number.isFinite(s)) return Math.max(0, s) * 1000 + 50;
  return Math.min(4000, 250 * 2 ** (attempt - 1));
}

/**
 * Rosterly client: a session cookie and its CSRF token (signed in again when
 * the session stops working), waits as long as a 429 asks, retries server
 * errors; a write is retried with the same Idempotency-Key, so a write whose
 * answer was lost is not made twice.
 */
export class RosterlyClient {
  private readonly config: Config;
  private cookie = "";
  private csrf = "";

  constructor(config: Config) {
    this.config = config;
  }

  async login(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
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
      const body = (await res.json()) as { csrf?: string };
      const sid = /rly_sid=([^;]+)/.exec(res.headers.get("set-cookie") ?? "");
      if (!sid || !body.csrf) throw new Error("login answered without a session cookie or CSRF token");
      this.cookie = `rly_sid=${sid[1]}`;
      this.csrf = body.csrf;
      return;
    }
  }

  /** One request with the session, retried through throttling, server errors and an expired session. */
  private async send(method: string, path: string, body?: unknown, key?: string): Promise<unknown> {
    let relogged = false;
    for (let attempt = 1; ; attempt++) {
      const headers: Record<string, string> = { cookie: this.cookie, accept: "application/json" };
      if (body !== undefined) {
        headers["content-type"] = "application/json";
        headers["x-rosterly-csrf"] = this.csrf;
      }
      if (key) headers["idempotency-key"] = key;
      const res = await fetch(`${this.config.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      if (res.ok) return res.json();
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
      throw new Error(`${method} ${path} failed with ${res.status}: ${text.slice(0, 200)}`);
    }
  }

  /** Every record of a list, page by page, read again from the start until a whole read holds as many as its `total`. */
  async all(path: string): Promise<RosterlyRecord[]> {
    for (let pass = 1; ; pass++) {
      const byId = new Map<string, RosterlyRecord>();
      let total = 0;
      for (let offset: number | null = 0; offset !== null; ) {
        const page = (await this.send("GET", `${path}?offset=${offset}&limit=200`)) as Page;
        for (const r of page.items) byId.set(r.id, r);
        total = page.total;
        offset = page.next_offset;
      }
      // `total` is the number of matching records: a pass that ends with fewer missed some while the list moved.
      if (byId.size >= total) return [...byId.values()];
      if (pass >= LIST_PASSES) throw new Error(`GET ${path}: ${byId.size} of ${total} records after ${pass} reads; the list kept moving`);
      await sleep(Math.min(4000, 250 * 2 ** (pass - 1)));
    }
  }

  /** Adds a note to a worker's file, once for `key` however often it is retried. */
  async createNote(workerId: string, note: { body: string; visibility: string; author: string }, key: string): Promise<RosterlyRecord> {
    return (await this.send("POST", `/api/v3/workers/${encodeURIComponent(workerId)}/notes`, note, key)) as RosterlyRecord;
  }
}
