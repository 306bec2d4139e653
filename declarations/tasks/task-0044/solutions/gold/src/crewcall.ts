import type { Config } from "./config.ts";

/** A record as CrewCall serves it. */
export interface CrewRecord {
  id: number | string;
  [field: string]: unknown;
}

/** An answer CrewCall gave (after the client's retries). */
export interface Answer {
  status: number;
  body: any;
}

/** CrewCall kept failing on one request: the run stops and the scheduler's next run finishes the job. */
export class GaveUp extends Error {}

/** Largest page CrewCall serves. */
export const PAGE_SIZE = 200;
/** Pauses before retrying a 5xx (or a refused confirmation); after the last, the request has failed for several seconds. */
const BACKOFF_MS = [300, 600, 1200, 2400];
/** A wait CrewCall asks for that is longer than this is left to the scheduler's next run. */
const LONGEST_WAIT_S = 60;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The `code` of an error body, or "" when it has none. */
function errorCode(text: string): string {
  try {
    const code = (JSON.parse(text) as { code?: unknown } | null)?.code;
    return typeof code === "string" ? code : "";
  } catch {
    return "";
  }
}

/**
 * CrewCall Partner API client. Waits as 429s and 503s ask, retries a 5xx (and a
 * network error) in place with the same Idempotency-Key, gives up when a request
 * keeps failing. Other answers go back to the caller.
 */
export class CrewCallClient {
  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  /**
   * One request, retried as CrewCall's answers ask. `retryStatuses` are retried like a 5xx, except
   * an answer whose error `code` is one of `finalCodes` (a refusal that no retry can change).
   */
  async request(method: string, path: string, opts: { body?: unknown; key?: string; retryStatuses?: number[]; finalCodes?: string[] } = {}): Promise<Answer> {
    const url = `${this.config.baseUrl}${path}`;
    const headers: Record<string, string> = { Authorization: `Token ${this.config.apiKey}`, accept: "application/json" };
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    if (opts.key) headers["Idempotency-Key"] = opts.key;
    let failures = 0;
    for (;;) {
      let res: Response | null = null;
      let text = "";
      try {
        res = await fetch(url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
        text = await res.text();
      } catch {
        res = null;
      }
      const status = res?.status ?? 0;
      if (res && (status === 429 || status === 503)) {
        const wait = Number(res.headers.get("retry-after") ?? "1");
        const seconds = Number.isFinite(wait) && wait > 0 ? wait : 1;
        if (seconds > LONGEST_WAIT_S) throw new GaveUp(`${method} ${path}: CrewCall asks to wait ${seconds}s (${status})`);
        await sleep(seconds * 1000 + 100);
        continue;
      }
      const final = opts.finalCodes?.includes(errorCode(text)) ?? false;
      if (status === 0 || status >= 500 || (opts.retryStatuses?.includes(status) && !final)) {
        if (failures >= BACKOFF_MS.length) throw new GaveUp(`${method} ${path} kept failing (last ${status || "network error"})`);
        await sleep(BACKOFF_MS[failures]);
        failures += 1;
        continue;
      }
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      return { status, body };
    }
  }

  async get<T>(path: string, params: Record<string, string> = {}): Promise<T> {
    const query = new URLSearchParams(params);
    const res = await this.request("GET", `${path}${query.size ? `?${query}` : ""}`);
    if (res.status !== 200) throw new Error(`GET ${path}?${query} failed with ${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`);
    return res.body as T;
  }

  /**
   * Every record of a list. An offset crawl of a list that changes while it is read can miss
   * records (they move to the head) or see some twice, so the list is read again until a full
   * pass finds nothing new.
   */
  async all(path: string): Promise<Map<string, CrewRecord>> {
    const out = new Map<string, CrewRecord>();
    for (let pass = 0; pass < 5; pass++) {
      let added = 0;
      for (let offset = 0; ; ) {
        const page = (await this.get<{ records: CrewRecord[] }>(path, { offset: String(offset), limit: String(PAGE_SIZE) })).records;
        for (const r of page) {
          if (!out.has(String(r.id))) added += 1;
          out.set(String(r.id), r);
        }
        offset += page.length;
        if (page.length < PAGE_SIZE) break;
      }
      if (pass > 0 && added === 0) return out;
    }
    return out;
  }
}
