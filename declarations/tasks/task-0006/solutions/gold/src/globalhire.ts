import type { Config } from "./config.ts";

/** A candidate as GlobalHire serves it. */
export interface Candidate {
  id: string;
  updated_at: string;
  archived: boolean;
  [field: string]: unknown;
}

/** One page of a list endpoint. */
export interface Page<T> {
  items: T[];
  total_count: number;
}

/**
 * Records per page. GlobalHire silently cuts any larger `limit` to 200 (its
 * documentation says 500), so ask for what it serves and advance by what
 * actually came back.
 */
export const PAGE_SIZE = 200;

/** Attempts of one request answered 5xx (or lost on the network) before the run gives up. */
const MAX_SERVER_ERROR_ATTEMPTS = 4;
/** Rate-limit waits one request may sit through before the run gives up. */
const MAX_RATE_LIMIT_WAITS = 30;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A request GlobalHire kept failing; progress made so far is safe on disk. */
export class GaveUp extends Error {}

/**
 * How long a 429 asks us to wait, in ms. GlobalHire sends delay-seconds (its
 * documentation says an HTTP date); RFC 9110 allows both, so read both. A
 * date is measured against the response's own Date header, so the offset of
 * our clock does not matter.
 */
export function retryAfterMs(headers: Headers): number {
  const raw = headers.get("retry-after")?.trim() ?? "";
  const reset = Number(headers.get("x-ratelimit-reset"));
  const fallback = Number.isFinite(reset) && reset > 0 ? reset * 1000 : 2000;
  let wait = fallback;
  if (/^\d+$/.test(raw)) wait = Number(raw) * 1000;
  else if (raw && /[a-z]/i.test(raw)) {
    const until = Date.parse(raw);
    const served = Date.parse(headers.get("date") ?? "");
    if (!Number.isNaN(until)) wait = until - (Number.isNaN(served) ? Date.now() : served);
  }
  return Math.max(0, wait) + 150;
}

/** GlobalHire Talent API v2 client: X-GH-Api-Key, waits out rate limits, retries server errors in place. */
export class GlobalHireClient {
  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  /**
   * One GET, repeated unchanged until it succeeds: after a 429 it waits as
   * long as Retry-After says; after a 5xx or a network error it backs off
   * (0.25 s, 0.5 s, 1 s) and gives up with GaveUp after the last attempt.
   */
  async get<T>(path: string, params: Record<string, string> = {}): Promise<T> {
    const query = new URLSearchParams(params);
    const url = `${this.config.baseUrl}${path}${query.size ? `?${query}` : ""}`;
    let serverErrors = 0;
    let waits = 0;
    for (;;) {
      let res: Response;
      try {
        res = await fetch(url, { headers: { "X-GH-Api-Key": this.config.apiKey, accept: "application/json" } });
      } catch (err) {
        if (++serverErrors >= MAX_SERVER_ERROR_ATTEMPTS) throw new GaveUp(`GET ${path}?${query}: ${(err as Error).message}`);
        await sleep(250 * 2 ** (serverErrors - 1));
        continue;
      }
      const text = await res.text();
      if (res.status === 429) {
        if (++waits > MAX_RATE_LIMIT_WAITS) throw new GaveUp(`GET ${path}?${query}: still rate limited after ${MAX_RATE_LIMIT_WAITS} waits`);
        const ms = retryAfterMs(res.headers);
        console.error(`rate limited on ${path}?${query}; waiting ${ms} ms`);
        await sleep(ms);
        continue;
      }
      if (res.status >= 500) {
        if (++serverErrors >= MAX_SERVER_ERROR_ATTEMPTS) throw new GaveUp(`GET ${path}?${query} failed ${serverErrors} times, last with ${res.status}: ${text.slice(0, 200)}`);
        console.error(`GET ${path}?${query} answered ${res.status}; retrying the same page`);
        await sleep(250 * 2 ** (serverErrors - 1));
        continue;
      }
      if (!res.ok) throw new Error(`GET ${path}?${query} failed with ${res.status}: ${text.slice(0, 200)}`);
      return JSON.parse(text) as T;
    }
  }

  /** One page of candidates from `offset`, optionally only those changed since a watermark. */
  candidatePage(offset: number, since?: string): Promise<Page<Candidate>> {
    const params: Record<string, string> = { offset: String(offset), limit: String(PAGE_SIZE) };
    if (since) params.modified_since = since;
    return this.get<Page<Candidate>>("/v2/candidates", params);
  }
}
