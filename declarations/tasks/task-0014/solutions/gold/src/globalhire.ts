import type { Config } from "./config.ts";

/** A record as GlobalHire serves it. */
export interface VendorRecord {
  id: string;
  updated_at: string;
  archived?: boolean;
  [field: string]: unknown;
}

interface ListPage {
  items: VendorRecord[];
  total_count: number;
}

/**
 * Records per page. The documentation promises 500, but GlobalHire cuts any
 * larger `limit` to 200 without saying so; the paging below advances by what
 * came back and stops on `total_count`, so a smaller page would still be read
 * in full.
 */
export const PAGE_LIMIT = 200;

/** Pauses before each retry of a request that answered 5xx or never answered; then the run gives up. */
const SERVER_ERROR_BACKOFF_MS = [300, 600, 1200];
/** Rate-limit waits one request may sit through before the run gives up. */
const MAX_RATE_LIMIT_WAITS = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** GlobalHire kept failing on one request: nothing of this run may be committed. */
export class GlobalHireUnavailable extends Error {}

/**
 * How long a 429 asks us to wait, in ms. GlobalHire sends whole seconds
 * (its documentation says an HTTP date); RFC 9110 allows both, so read both.
 */
export function retryAfterMs(headers: Headers): number {
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

/** GlobalHire Talent API v2: the key in a header, rate limits waited out, failed requests retried unchanged. */
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
        if (!res.ok) throw new Error(`GET ${path}?${query} answered ${res.status}: ${text.slice(0, 200)}`);
        return JSON.parse(text) as ListPage;
      }
      if (res) problem = `${res.status}: ${(await res.text()).slice(0, 200)}`;
      if (failures >= SERVER_ERROR_BACKOFF_MS.length) throw new GlobalHireUnavailable(`GET ${path}?${query} failed ${failures + 1} times, last ${problem}`);
      console.error(`GET ${path}?${query} failed (${problem}); retrying the same request`);
      await sleep(SERVER_ERROR_BACKOFF_MS[failures++]);
    }
  }

  /** Every record of a list, or only those changed at or after `since` (an ISO instant). */
  async listAll(path: string, since: string | null): Promise<VendorRecord[]> {
    const out: VendorRecord[] = [];
    for (let offset = 0; ; ) {
      const params: Record<string, string> = { offset: String(offset), limit: String(PAGE_LIMIT) };
      if (since !== null) params.modified_since = since;
      const page = await this.page(path, params);
      out.push(...page.items);
      offset += page.items.length;
      if (page.items.length === 0 || offset >= page.total_count) return out;
    }
  }
}
