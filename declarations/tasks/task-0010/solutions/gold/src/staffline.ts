import { createHash, createHmac } from "node:crypto";
import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The longest wait StaffLine may ask for before we stop and leave the rest to the next run. */
const MAX_WAIT_S = 30;

/** StaffLine asked us to come back later than we are willing to wait. */
export class StafflineUnavailable extends Error {}

/** One answer: status and parsed JSON body. */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** The query string as StaffLine signs it: pairs sorted by name, then value, each percent-encoded. */
function canonicalQuery(query: URLSearchParams): string {
  return [...query.entries()]
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&");
}

/** Seconds StaffLine asks us to wait: its 429s carry them in the body, other answers in Retry-After. */
function askedWait(res: Response, body: Record<string, unknown>): number | null {
  if (typeof body.retry_after_seconds === "number") return body.retry_after_seconds;
  const header = res.headers.get("retry-after");
  if (!header) return null;
  const secs = Number(header);
  if (Number.isFinite(secs)) return secs;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, (at - Date.now()) / 1000);
}

/**
 * StaffLine Partner API client. Every request is signed over method, path,
 * query, timestamp and body hash (the order StaffLine checks, which is not the
 * documented one), with a timestamp on StaffLine's clock, learnt from its Date
 * header. Rate limits and short outages are waited out as StaffLine asks.
 */
export class Staffline {
  private readonly config: Config;
  private skewMs = 0;

  constructor(config: Config) {
    this.config = config;
  }

  private async send(method: string, path: string, query: URLSearchParams, body: string): Promise<Response> {
    const timestamp = String(Math.floor((Date.now() + this.skewMs) / 1000));
    const signed = [method, path, canonicalQuery(query), timestamp, createHash("sha256").update(body).digest("hex")].join("\n");
    const headers: Record<string, string> = {
      "X-SL-App-Token": this.config.appToken,
      "X-SL-Timestamp": timestamp,
      "X-SL-Signature": createHmac("sha256", this.config.hmacSecret).update(signed).digest("hex"),
    };
    if (body) headers["content-type"] = "application/json";
    const res = await fetch(`${this.config.baseUrl}${path}${query.size ? `?${query}` : ""}`, { method, headers, body: body || undefined });
    const date = res.headers.get("date");
    if (date && !Number.isNaN(Date.parse(date))) this.skewMs = Date.parse(date) - Date.now();
    return res;
  }

  /**
   * One request, retried for what never has side effects: a timestamp refused
   * while we learn StaffLine's clock, a 429, a 503 with a short wait. Other
   * answers come back as they are; a dropped connection throws.
   */
  async call(method: string, path: string, params: Record<string, string> = {}, payload?: unknown): Promise<Answer> {
    const query = new URLSearchParams(params);
    const raw = payload === undefined ? "" : JSON.stringify(payload);
    for (let attempt = 1; ; attempt++) {
      const res = await this.send(method, path, query, raw);
      const text = await res.text();
      let body: Record<string, unknown> = {};
      try {
        body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        body = { unreadable: text.slice(0, 200) };
      }
      if (res.status === 401 && body.error_code === "timestamp_out_of_window" && attempt < 3) continue;
      if (res.status === 429 || res.status === 503) {
        const wait = askedWait(res, body) ?? 2 ** attempt;
        if (wait > MAX_WAIT_S || attempt >= 6) throw new StafflineUnavailable(`${method} ${path}: StaffLine answered ${res.status} and asks us to wait ${wait}s`);
        await sleep(wait * 1000 + 100);
        continue;
      }
      return { status: res.status, body };
    }
  }

  /** A GET whose server errors and dropped connections are retried a few times, with a pause. */
  async get(path: string, params: Record<string, string> = {}): Promise<Answer> {
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await this.call("GET", path, params);
        if (answer.status < 500 || attempt >= 4) return answer;
      } catch (err) {
        if (err instanceof StafflineUnavailable || attempt >= 4) throw err;
      }
      await sleep(250 * 2 ** attempt);
    }
  }

  /** Every row of an offset-paged list, or null when StaffLine does not know the path's parent (404). */
  async listAll(path: string): Promise<Record<string, unknown>[] | null> {
    const rows: Record<string, unknown>[] = [];
    for (let start = 0; ; ) {
      const { status, body } = await this.get(path, { start: String(start), count: "100" });
      if (status === 404) return null;
      if (status !== 200) throw new Error(`GET ${path} answered ${status}: ${JSON.stringify(body)}`);
      const results = Array.isArray(body.results) ? (body.results as Record<string, unknown>[]) : [];
      rows.push(...results);
      start += results.length;
      if (results.length === 0 || typeof body.total_count !== "number" || start >= body.total_count) return rows;
    }
  }

  /**
   * POST a write; a 5xx or a dropped connection is retried with the very same
   * body (and so the same request_id), which StaffLine answers with its first
   * answer if the first attempt was stored.
   */
  async write(path: string, payload: Record<string, unknown>): Promise<Answer> {
    for (let attempt = 1; ; attempt++) {
      let detail: string;
      try {
        const answer = await this.call("POST", path, {}, payload);
        if (answer.status < 500) return answer;
        detail = `${answer.status} ${JSON.stringify(answer.body)}`;
      } catch (err) {
        if (err instanceof StafflineUnavailable) throw err;
        detail = (err as Error).message;
      }
      if (attempt >= 4) throw new Error(`POST ${path} keeps failing: ${detail}`);
      console.error(`POST ${path}: ${detail}; retrying with the same request_id`);
      await sleep(300 * 2 ** attempt);
    }
  }
}
