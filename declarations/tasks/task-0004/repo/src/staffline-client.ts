import { createHash, createHmac } from "node:crypto";
import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Records per list page (StaffLine's documented maximum). */
const PAGE_SIZE = 100;

/** One page of a StaffLine list. */
interface ListPage {
  results: Record<string, unknown>[];
  total?: number;
}

/** Query string as StaffLine signs it: pairs sorted by name then value, each percent-encoded. */
function canonicalQuery(query: URLSearchParams): string {
  return [...query.entries()]
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&");
}

/**
 * Signed StaffLine Partner API client. Every request carries the app token
 * and an HMAC signature over method, path, sorted query, timestamp and body
 * hash; timestamps follow the server clock (learned from `Date`), which does
 * not agree with ours.
 */
export class StafflineClient {
  private readonly config: Config;
  /** Server clock minus ours, in ms. */
  private skewMs = 0;

  constructor(config: Config) {
    this.config = config;
  }

  private sign(method: string, path: string, query: URLSearchParams, timestamp: string, body: string): string {
    const bodyHash = createHash("sha256").update(body).digest("hex");
    const text = [method, path, canonicalQuery(query), timestamp, bodyHash].join("\n");
    return createHmac("sha256", this.config.hmacSecret).update(text).digest("hex");
  }

  private learnClock(res: Response): void {
    const date = res.headers.get("date");
    if (date) this.skewMs = Date.parse(date) - Date.now();
  }

  /** GET a path relative to the base URL. Retries rate limits, clock drift and server errors. */
  async get(path: string, params: Record<string, string> = {}): Promise<unknown> {
    // StaffLine's partner gateway files its audit records by application, so the
    // token also rides along as a parameter (it is covered by the signature).
    const query = new URLSearchParams({ ...params, app_token: this.config.appToken });
    for (let attempt = 1; ; attempt++) {
      const timestamp = String(Math.floor((Date.now() + this.skewMs) / 1000));
      const res = await fetch(`${this.config.baseUrl}${path}?${query}`, {
        headers: {
          "X-SL-App-Token": this.config.appToken,
          "X-SL-Timestamp": timestamp,
          "X-SL-Signature": this.sign("GET", path, query, timestamp, ""),
        },
      });
      if (res.ok) return res.json();
      const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      if (res.status === 401 && body.error_code === "timestamp_out_of_window" && attempt < 3) {
        this.learnClock(res);
        continue;
      }
      if (res.status === 429 && attempt < 6) {
        await sleep(1000 * Number(body.retry_after_seconds ?? 1));
        continue;
      }
      if (res.status >= 500 && attempt < 5) {
        await sleep(250 * 2 ** attempt);
        continue;
      }
      throw new Error(`GET ${path} failed with ${res.status}: ${JSON.stringify(body)}`);
    }
  }

  /** Every record of an offset-paged list (`start`/`count`). */
  async listAll(path: string, params: Record<string, string> = {}): Promise<Record<string, unknown>[]> {
    const rows: Record<string, unknown>[] = [];
    for (let start = 0; ; ) {
      const page = (await this.get(path, { ...params, start: String(start), count: String(PAGE_SIZE) })) as ListPage;
      rows.push(...page.results);
      start += page.results.length;
      if (page.results.length === 0 || start >= Number(page.total ?? start)) return rows;
    }
  }
}
