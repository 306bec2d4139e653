import { createHash, createHmac } from "node:crypto";
import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function sortedQuery(query: URLSearchParams): string {
  return [...query.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&");
}

/** StaffLine client written from the documentation. */
export class StafflineClient {
  private readonly config: Config;
  serverTime: number | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  // As documented: method, path, timestamp, query, body hash, joined by newlines.
  private sign(method: string, path: string, query: URLSearchParams, timestamp: string, body: string): string {
    const text = [method, path, timestamp, sortedQuery(query), createHash("sha256").update(body).digest("hex")].join("\n");
    return createHmac("sha256", this.config.hmacSecret).update(text).digest("hex");
  }

  async get(path: string, params: Record<string, string> = {}): Promise<unknown> {
    const query = new URLSearchParams(params);
    for (let attempt = 1; ; attempt++) {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const res = await fetch(`${this.config.baseUrl}${path}${query.size ? `?${query}` : ""}`, {
        headers: { "X-SL-App-Token": this.config.appToken, "X-SL-Timestamp": timestamp, "X-SL-Signature": this.sign("GET", path, query, timestamp, "") },
      });
      const serverTime = res.headers.get("x-sl-server-time");
      if (serverTime) this.serverTime = Number(serverTime);
      if (res.ok) return res.json();
      if (res.status === 429 && attempt < 6) {
        await sleep(1000 * Number(res.headers.get("retry-after") ?? 1));
        continue;
      }
      throw new Error(`GET ${path} failed with ${res.status}`);
    }
  }

  async listAll(path: string, params: Record<string, string> = {}): Promise<Record<string, unknown>[]> {
    const rows: Record<string, unknown>[] = [];
    for (let start = 0; ; ) {
      const page = (await this.get(path, { ...params, start: String(start), count: "100" })) as { results: Record<string, unknown>[]; total_count?: number };
      rows.push(...page.results);
      start += page.results.length;
      if (page.results.length === 0 || page.total_count === undefined || start >= page.total_count) return rows;
    }
  }
}
