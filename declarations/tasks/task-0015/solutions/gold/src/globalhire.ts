import type { Config } from "./config.ts";

/** A record as GlobalHire serves it. */
export interface VendorRecord {
  id: string;
  [field: string]: unknown;
}

/** One list page: offset lists carry `total_count`; cursor lists add `next`. */
interface ListPage {
  items: VendorRecord[];
  total_count?: number;
  next?: string | null;
}

/** What one list endpoint returned when paged to its end. */
export interface ListRead {
  path: string;
  records: VendorRecord[];
  /** The `total_count` its first page announced (null when it sent none). */
  total: number | null;
}

/**
 * Records per page. The docs promise 500; offset lists cut any larger `limit` to
 * 200 and the timesheet cursor list to 100, silently. Paging below advances by
 * what came back, never by what was asked for.
 */
const PAGE_LIMIT = 200;
/** Pauses before each retry of a request that answered 5xx or never answered; then the run gives up. */
const SERVER_ERROR_BACKOFF_MS = [300, 600, 1200, 2400];
/** Rate-limit waits one request may sit through before the run gives up. */
const MAX_RATE_LIMIT_WAITS = 20;
/** Pages one list may take before the run assumes it is going round in circles. */
const MAX_PAGES = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** GlobalHire kept failing, or a list could not be read: nothing of this run may be written. */
export class GlobalHireUnavailable extends Error {}

/**
 * How long a 429 asks us to wait, in ms. GlobalHire sends whole seconds (its
 * documentation says an HTTP date); RFC 9110 allows both, so read both.
 */
function retryAfterMs(headers: Headers): number {
  const raw = headers.get("retry-after")?.trim() ?? "";
  if (/^\d+$/.test(raw)) return Number(raw) * 1000 + 100;
  const until = raw ? Date.parse(raw) : Number.NaN;
  if (!Number.isNaN(until) && /[a-z]/i.test(raw)) {
    const served = Date.parse(headers.get("date") ?? "");
    return Math.max(0, until - (Number.isNaN(served) ? Date.now() : served)) + 100;
  }
  const reset = Number(headers.get("x-ratelimit-reset"));
  return (Number.isFinite(reset) && reset > 0 ? reset * 1000 : 2000) + 100;
}

/** GlobalHire Talent API (v1 and v2): the key in a header, rate limits waited out, failed requests retried unchanged. */
export class GlobalHire {
  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  private async page(path: string, params: Record<string, string>): Promise<ListPage> {
    const query = new URLSearchParams(params);
    const url = `${this.config.baseUrl}${path}?${query}`;
    let failures = 0;
    let waits = 0;
    for (;;) {
      let res: Response | null = null;
      let problem = "";
      try {
        res = await fetch(url, { headers: { "X-GH-Api-Key": this.config.apiKey, accept: "application/json" } });
      } catch (err) {
        problem = (err as Error).message;
      }
      if (res && res.status === 429) {
        await res.text();
        if (++waits > MAX_RATE_LIMIT_WAITS) throw new GlobalHireUnavailable(`GET ${path}: still rate limited after ${MAX_RATE_LIMIT_WAITS} waits`);
        const ms = retryAfterMs(res.headers);
        console.error(`GET ${path}?${query}: rate limited, waiting ${ms} ms`);
        await sleep(ms);
        continue;
      }
      if (res && res.status < 500) {
        const text = await res.text();
        if (!res.ok) throw new GlobalHireUnavailable(`GET ${path}?${query} answered ${res.status}: ${text.slice(0, 200)}`);
        const body = JSON.parse(text) as ListPage;
        if (!Array.isArray(body.items)) throw new GlobalHireUnavailable(`GET ${path}?${query}: no items in the answer`);
        return body;
      }
      if (res) problem = `${res.status}: ${(await res.text()).slice(0, 200)}`;
      if (failures >= SERVER_ERROR_BACKOFF_MS.length) throw new GlobalHireUnavailable(`GET ${path}?${query} failed ${failures + 1} times, last ${problem}`);
      console.error(`GET ${path}?${query} failed (${problem}); retrying the same request`);
      await sleep(SERVER_ERROR_BACKOFF_MS[failures++]);
    }
  }

  /**
   * Every record a list endpoint returns, paged to its end: by the `next`
   * cursor when the list sends one, else by offset until `total_count`.
   */
  async readList(path: string): Promise<ListRead> {
    const records: VendorRecord[] = [];
    let total: number | null = null;
    let cursor: string | null = null;
    let offset = 0;
    for (let n = 0; n < MAX_PAGES; n++) {
      const params: Record<string, string> = { limit: String(PAGE_LIMIT) };
      // The first page names no position: offset lists start at 0, cursor lists at their head.
      if (cursor !== null) params.cursor = cursor;
      else if (n > 0) params.offset = String(offset);
      const page = await this.page(path, params);
      if (total === null && typeof page.total_count === "number") total = page.total_count;
      records.push(...page.items);
      if ("next" in page) {
        // A cursor list: the cursor decides, offsets mean nothing to it.
        if (!page.next || page.items.length === 0) return { path, records, total };
        cursor = page.next;
        continue;
      }
      offset += page.items.length;
      if (page.items.length === 0 || total === null || offset >= (page.total_count ?? total)) return { path, records, total };
    }
    throw new GlobalHireUnavailable(`GET ${path}: still paging after ${MAX_PAGES} pages`);
  }
}
