import type { Config } from "./config.ts";

/** One activity ledger entry as GlobalHire serves it. */
export interface ActivityEntry {
  id: string;
  occurred_at: string;
  kind: string;
  placement_id: string | null;
  candidate_id: string | null;
  agency_id: string | null;
  branch: string;
  amount_cents: number | null;
  /** Present on every entry although the docs say voided entries leave the list. */
  archived?: boolean;
}

interface ActivityPage {
  items: ActivityEntry[];
  total_count: number;
  /** The window GlobalHire actually served: it cuts long windows short (to 7 days, not the documented 30). */
  window: { from: string; to: string };
}

/** Records per page; GlobalHire cuts anything larger to 200 whatever its docs say. */
const PAGE_LIMIT = 200;
/** Pauses before each retry of a request that answered 5xx or never answered; then the run gives up. */
const SERVER_ERROR_BACKOFF_MS = [300, 600, 1200];
/** Rate-limit waits one request may sit through before the run gives up. */
const MAX_RATE_LIMIT_WAITS = 20;
/** Windows one period may take before the run calls GlobalHire stuck. */
const MAX_WINDOWS_PER_PERIOD = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** GlobalHire kept failing: nothing of this run may be written. */
export class GlobalHireUnavailable extends Error {}

/**
 * How long a 429 asks us to wait, in ms. GlobalHire sends whole seconds (its
 * documentation says an HTTP date); RFC 9110 allows both, so read both.
 */
export function retryAfterMs(headers: Headers): number {
  const raw = headers.get("retry-after")?.trim() ?? "";
  if (/^\d+$/.test(raw)) return Number(raw) * 1000 + 100;
  const until = /[a-z]/i.test(raw) ? Date.parse(raw) : Number.NaN;
  if (!Number.isNaN(until)) {
    const served = Date.parse(headers.get("date") ?? "");
    return Math.max(0, until - (Number.isNaN(served) ? Date.now() : served)) + 100;
  }
  const reset = Number(headers.get("x-ratelimit-reset"));
  return (Number.isFinite(reset) && reset > 0 ? reset * 1000 : 2000) + 100;
}

/** An ISO 8601 instant with `Z` or an offset, in ms. */
export function instant(v: string): number {
  const ms = Date.parse(v);
  if (!/(Z|[+-]\d{2}:\d{2})$/.test(v) || Number.isNaN(ms)) throw new Error(`not an instant: ${v}`);
  return ms;
}

/** The `...Z` form the auditors compare as text. */
export const utc = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** GlobalHire Talent API v2: the key in a header, rate limits waited out, failed requests retried unchanged. */
export class GlobalHire {
  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  private async get(path: string, params: Record<string, string>): Promise<ActivityPage> {
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
        return JSON.parse(text) as ActivityPage;
      }
      if (res) problem = `${res.status}: ${(await res.text()).slice(0, 200)}`;
      if (failures >= SERVER_ERROR_BACKOFF_MS.length) throw new GlobalHireUnavailable(`GET ${path}?${query} failed ${failures + 1} times, last ${problem}`);
      console.error(`GET ${path}?${query} failed (${problem}); retrying the same request`);
      await sleep(SERVER_ERROR_BACKOFF_MS[failures++]);
    }
  }

  /**
   * Every ledger entry that happened in `[fromMs, toMs)`. Each request asks for
   * the whole rest of the range; GlobalHire serves a shorter window than asked
   * (it caps windows, at fewer days than its docs say) and reports the window
   * it served in `window`: the next request starts where that one ended.
   */
  async activity(fromMs: number, toMs: number): Promise<ActivityEntry[]> {
    const out: ActivityEntry[] = [];
    let cursor = fromMs;
    for (let windows = 0; cursor < toMs; windows++) {
      if (windows >= MAX_WINDOWS_PER_PERIOD) throw new GlobalHireUnavailable(`the activity ledger served no progress past ${utc(cursor)}`);
      const window = { from: utc(cursor), to: utc(toMs) };
      let servedTo: number | null = null;
      for (let offset = 0; ; ) {
        const page = await this.get("/v2/activity", { ...window, offset: String(offset), limit: String(PAGE_LIMIT) });
        const to = instant(page.window.to);
        if (instant(page.window.from) !== cursor) throw new Error(`asked for a window from ${window.from}, GlobalHire served one from ${page.window.from}`);
        if (servedTo !== null && to !== servedTo) throw new Error(`the served window moved between pages (${utc(servedTo)} then ${utc(to)})`);
        servedTo = to;
        out.push(...page.items);
        offset += page.items.length;
        if (page.items.length === 0 || offset >= page.total_count) break;
      }
      if (servedTo === null || servedTo <= cursor) throw new GlobalHireUnavailable(`GlobalHire served an empty window from ${window.from}`);
      cursor = servedTo;
    }
    return out;
  }
}
