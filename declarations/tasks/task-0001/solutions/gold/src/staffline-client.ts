import { createHash, createHmac } from "node:crypto";
import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Query string as StaffLine signs it: pairs sorted by key then value, percent-encoded. */
function canonicalQuery(query: URLSearchParams): string {
  return [...query.entries()]
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&");
}

/** A signed StaffLine client that keeps to the server's clock and its rate limit. */
export class StafflineClient {
  private readonly config: Config;
  /** Server clock minus ours, in ms, learned from the Date header. */
  private skewMs: number | null = null;
  /** The server's data-clock "now" of the latest response (X-SL-Server-Time). */
  serverTime: number | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  private async learnClock(): Promise<void> {
    const res = await fetch(`${this.config.baseUrl}/svc/jobs?count=1`, { method: "HEAD" });
    const date = res.headers.get("date");
    this.skewMs = date ? Date.parse(date) - Date.now() : 0;
  }

  private sign(method: string, path: string, query: URLSearchParams, timestamp: string, body: string): string {
    const bodyHash = createHash("sha256").update(body).digest("hex");
    const text = [method, path, canonicalQuery(query), timestamp, bodyHash].join("\n");
    return createHmac("sha256", this.config.hmacSecret).update(text).digest("hex");
  }

  /** GET a path (relative to the base URL) with parameters; retries 429 and 5xx with backoff. */
  async get(path: string, params: Record<string, string> = {}): Promise<unknown> {
    if (this.skewMs === null) await this.learnClock();
    const query = new URLSearchParams(params);
    for (let attempt = 1; ; attempt++) {
      const timestamp = String(Math.floor((Date.now() + this.skewMs!) / 1000));
      const res = await fetch(`${this.config.baseUrl}${path}${query.size ? `?${query}` : ""}`, {
        headers: { "X-SL-App-Token": this.config.appToken, "X-SL-Timestamp": timestamp, "X-SL-Signature": this.sign("GET", path, query, timestamp, "") },
      });
      const serverTime = res.headers.get("x-sl-server-time");
      if (serverTime) this.serverTime = Number(serverTime);
      if (res.ok) return res.json();
      const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      if (res.status === 429 && attempt < 6) {
        await sleep(1000 * Number(body.retry_after_seconds ?? 1));
        continue;
      }
      if (res.status === 401 && body.error_code === "timestamp_out_of_window" && attempt < 3) {
        await this.learnClock();
        continue;
      }
      if (res.status >= 500 && attempt < 5) {
        await sleep(250 * 2 ** attempt);
        continue;
      }
      throw new Error(`GET ${path} failed with ${res.status}: ${JSON.stringify(body)}`);
    }
  }

  /** Every row of an offset-paged list (start/count), newest parameters kept on each page. */
  async listAll(path: string, params: Record<string, string> = {}): Promise<Record<string, unknown>[]> {
    const rows: Record<string, unknown>[] = [];
    for (let start = 0; ; ) {
      const page = (await this.get(path, { ...params, start: String(start), count: "100" })) as { results: Record<string, unknown>[]; total_count?: number; _links?: { next?: { href: string } } };
      rows.push(...page.results);
      start += page.results.length;
      const more = page._links ? Boolean(page._links.next) : page.total_count !== undefined && start < page.total_count;
      if (!more || page.results.length === 0) return rows;
    }
  }
}
