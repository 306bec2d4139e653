import type { Config } from "./config.ts";

/** A record as GlobalHire serves it. */
export interface VendorRecord {
  id: string;
  updated_at: string;
  [field: string]: unknown;
}

interface ListPage {
  items: VendorRecord[];
  total_count: number;
}

/** The documented maximum page size (Pagination: "at most 500"). */
export const PAGE_LIMIT = 500;

const SERVER_ERROR_BACKOFF_MS = [300, 600, 1200];
const MAX_RATE_LIMIT_WAITS = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The wait a 429 asks for. The rate-limit page says Retry-After is an HTTP
 * date, so wait until that date (at least half a second).
 */
function retryAfterMs(headers: Headers): number {
  const until = Date.parse(headers.get("retry-after") ?? "");
  return Number.isNaN(until) ? 2000 : Math.max(500, until - Date.now());
}

/** GlobalHire Talent API v2 client. */
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
      const res = await fetch(url, { headers: { "X-GH-Api-Key": this.config.apiKey, accept: "application/json" } });
      const text = await res.text();
      if (res.status === 429 && ++waits <= MAX_RATE_LIMIT_WAITS) {
        await sleep(retryAfterMs(res.headers));
        continue;
      }
      if (res.status >= 500 && failures < SERVER_ERROR_BACKOFF_MS.length) {
        await sleep(SERVER_ERROR_BACKOFF_MS[failures++]);
        continue;
      }
      if (!res.ok) throw new Error(`GET ${path}?${query} answered ${res.status}: ${text.slice(0, 200)}`);
      return JSON.parse(text) as ListPage;
    }
  }

  /** Every record of a list, or only those changed at or after `since`; a short page is the last one. */
  async listAll(path: string, since: string | null): Promise<VendorRecord[]> {
    const out: VendorRecord[] = [];
    for (let offset = 0; ; ) {
      const params: Record<string, string> = { offset: String(offset), limit: String(PAGE_LIMIT) };
      if (since !== null) params.modified_since = since;
      const page = await this.page(path, params);
      out.push(...page.items);
      offset += page.items.length;
      if (page.items.length < PAGE_LIMIT || offset >= page.total_count) return out;
    }
  }
}
