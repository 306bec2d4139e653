import { createHash, createHmac } from "node:crypto";
import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function sortedQuery(query: URLSearchParams): string {
  return [...query.entries()]
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&");
}

/** StaffLine client written from the Partner API documentation. */
export class StafflineApi {
  private readonly config: Config;
  /** Server clock minus ours: the docs say the server clock is in the Date header. */
  private skewMs = 0;

  constructor(config: Config) {
    this.config = config;
  }

  // The documented string to sign puts the timestamp before the query; StaffLine's 401 on the
  // first try named its own order (query, then timestamp), which is what it checks.
  private sign(method: string, path: string, query: URLSearchParams, timestamp: string, body: string): string {
    const text = [method, path, sortedQuery(query), timestamp, createHash("sha256").update(body).digest("hex")].join("\n");
    return createHmac("sha256", this.config.hmacSecret).update(text).digest("hex");
  }

  async request(method: string, path: string, params: Record<string, string> = {}, payload?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const query = new URLSearchParams(params);
    const raw = payload === undefined ? "" : JSON.stringify(payload);
    for (let attempt = 1; ; attempt++) {
      const timestamp = String(Math.floor((Date.now() + this.skewMs) / 1000));
      const res = await fetch(`${this.config.baseUrl}${path}${query.size ? `?${query}` : ""}`, {
        method,
        headers: {
          "X-SL-App-Token": this.config.appToken,
          "X-SL-Timestamp": timestamp,
          "X-SL-Signature": this.sign(method, path, query, timestamp, raw),
          ...(raw ? { "content-type": "application/json" } : {}),
        },
        body: raw || undefined,
      });
      const date = res.headers.get("date");
      if (date) this.skewMs = Date.parse(date) - Date.now();
      const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      if (res.status === 401 && body.error_code === "timestamp_out_of_window" && attempt < 3) continue;
      // Rate limits: the documented Retry-After header, in seconds.
      if (res.status === 429 && attempt < 6) {
        await sleep(1000 * Number(res.headers.get("retry-after") ?? 1));
        continue;
      }
      if (res.status >= 500 && attempt < 4) {
        await sleep(500 * attempt);
        continue;
      }
      return { status: res.status, body };
    }
  }

  async listAll(path: string, params: Record<string, string> = {}): Promise<Record<string, unknown>[]> {
    const rows: Record<string, unknown>[] = [];
    for (let start = 0; ; ) {
      const { status, body } = await this.request("GET", path, { ...params, start: String(start), count: "100" });
      if (status !== 200) throw new Error(`GET ${path} failed with ${status}: ${JSON.stringify(body)}`);
      const results = (body.results ?? []) as Record<string, unknown>[];
      rows.push(...results);
      start += results.length;
      if (results.length === 0 || start >= Number(body.total_count ?? 0)) return rows;
    }
  }
}
