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
  /** Server clock minus ours, from the Date header as the docs describe. */
  private skewMs = 0;

  constructor(config: Config) {
    this.config = config;
  }

  // The documented recipe puts the timestamp before the query; the first 401 named StaffLine's
  // own order (query, then timestamp), so that is what we sign.
  private sign(method: string, path: string, query: URLSearchParams, timestamp: string, body: string): string {
    const text = [method, path, sortedQuery(query), timestamp, createHash("sha256").update(body).digest("hex")].join("\n");
    return createHmac("sha256", this.config.hmacSecret).update(text).digest("hex");
  }

  async request(method: string, path: string, payload?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const raw = payload === undefined ? "" : JSON.stringify(payload);
    const query = new URLSearchParams();
    for (let attempt = 1; ; attempt++) {
      const timestamp = String(Math.floor((Date.now() + this.skewMs) / 1000));
      const res = await fetch(`${this.config.baseUrl}${path}`, {
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
      // The request_id makes a retry safe, as the docs promise: send the same body again.
      if (res.status >= 500 && attempt < 4) {
        await sleep(500 * attempt);
        continue;
      }
      return { status: res.status, body };
    }
  }
}
