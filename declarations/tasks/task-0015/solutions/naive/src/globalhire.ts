import type { Config } from "./config.ts";

/** A record as GlobalHire serves it. */
export interface VendorRecord {
  id: string;
  [field: string]: unknown;
}

interface ListPage {
  items: VendorRecord[];
  total_count?: number;
  next?: string | null;
}

/** The documented maximum page size (Pagination: "at most 500"). */
const PAGE_LIMIT = 500;
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

/** GlobalHire Talent API v2 client (the version the docs recommend). */
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

  /** An offset list (Pagination): pass offset and limit until total_count is reached. */
  async offsetList(path: string): Promise<VendorRecord[]> {
    const out: VendorRecord[] = [];
    for (let offset = 0; ; ) {
      const page = await this.page(path, { offset: String(offset), limit: String(PAGE_LIMIT) });
      out.push(...page.items);
      offset += page.items.length;
      if (page.items.length === 0 || offset >= (page.total_count ?? 0)) return out;
    }
  }

  /** The timesheet list pages by cursor (Pagination, "Endpoints that page differently"): follow `next` until it is null. */
  async cursorList(path: string): Promise<VendorRecord[]> {
    const out: VendorRecord[] = [];
    let cursor: string | null = null;
    for (;;) {
      const params: Record<string, string> = { limit: String(PAGE_LIMIT) };
      if (cursor) params.cursor = cursor;
      const page = await this.page(path, params);
      out.push(...page.items);
      if (!page.next || page.items.length === 0) return out;
      cursor = page.next;
    }
  }
}
