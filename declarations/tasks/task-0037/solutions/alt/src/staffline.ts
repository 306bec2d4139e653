import { createHash, createHmac } from "node:crypto";
import type { StafflineConfig as Config } from "./config.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Longest wait StaffLine may ask for before we stop and leave the rest to the next run. */
const MAX_WAIT_S = 30;

/** StaffLine asked us to come back later than we are willing to wait. */
export class StafflineUnavailable extends Error {}

/** An answer that did not arrive whole (the connection dropped, the body is not JSON). */
class BrokenAnswer extends Error {}

/** A read StaffLine refused, with its status. */
export class ReadFailed extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** What a write call came back with. */
export type WriteOutcome =
  | { kind: "answered"; status: number; body: Record<string, unknown> }
  /** No usable answer (a 5xx or a dropped connection): the write may or may not have been stored. */
  | { kind: "unknown"; detail: string };

/** Query string as StaffLine signs it: pairs sorted by name, then value, percent-encoded. */
function canonicalQuery(query: URLSearchParams): string {
  return [...query.entries()]
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&");
}

/** Seconds StaffLine asks us to wait: the body's retry_after_seconds, else a Retry-After header. */
function waitAsked(res: Response, body: Record<string, unknown>): number | null {
  if (typeof body.retry_after_seconds === "number") return body.retry_after_seconds;
  const header = res.headers.get("retry-after");
  if (!header) return null;
  const secs = Number(header);
  if (Number.isFinite(secs)) return secs;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, (at - Date.now()) / 1000);
}

/**
 * A StaffLine Partner API client: every request signed (method, path, query,
 * timestamp, body hash) with a timestamp on StaffLine's clock, which runs
 * behind ours; rate limits and short outages waited out as StaffLine asks.
 */
export class Staffline {
  private readonly config: Config;
  /** StaffLine's clock minus ours, in ms, from the Date header of its answers. */
  private skewMs = 0;

  constructor(config: Config) {
    this.config = config;
  }

  private learnClock(res: Response): void {
    const date = res.headers.get("date");
    if (date && !Number.isNaN(Date.parse(date))) this.skewMs = Date.parse(date) - Date.now();
  }

  private async send(method: string, path: string, query: URLSearchParams, body: string): Promise<Response> {
    const timestamp = String(Math.floor((Date.now() + this.skewMs) / 1000));
    const text = [method, path, canonicalQuery(query), timestamp, createHash("sha256").update(body).digest("hex")].join("\n");
    const headers: Record<string, string> = {
      "X-SL-App-Token": this.config.appToken,
      "X-SL-Timestamp": timestamp,
      "X-SL-Signature": createHmac("sha256", this.config.hmacSecret).update(text).digest("hex"),
    };
    if (body) headers["content-type"] = "application/json";
    const res = await fetch(`${this.config.baseUrl}${path}${query.size ? `?${query}` : ""}`, { method, headers, body: body || undefined });
    this.learnClock(res);
    return res;
  }

  /**
   * One call, with what any call may be retried for without side effects: a
   * timestamp refused because our clock guess was off, a 429, a 503 with a short wait.
   */
  private async call(method: string, path: string, params: Record<string, string>, payload?: unknown): Promise<{ res: Response; body: Record<string, unknown> }> {
    const query = new URLSearchParams(params);
    const raw = payload === undefined ? "" : JSON.stringify(payload);
    for (let attempt = 1; ; attempt++) {
      const res = await this.send(method, path, query, raw);
      let body: Record<string, unknown>;
      try {
        const text = await res.text();
        body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch (err) {
        throw new BrokenAnswer(`${method} ${path}: ${res.status} with an unreadable body (${(err as Error).message})`);
      }
      if (res.status === 401 && body.error_code === "timestamp_out_of_window" && attempt < 3) continue;
      if (res.status === 429 || res.status === 503) {
        const wait = waitAsked(res, body) ?? 2 ** attempt;
        if (wait > MAX_WAIT_S || attempt >= 6) throw new StafflineUnavailable(`${method} ${path}: StaffLine answered ${res.status} and asks us to wait ${wait}s`);
        await sleep(wait * 1000 + 100);
        continue;
      }
      return { res, body };
    }
  }

  /** GET a path with parameters; server errors and dropped connections are retried a few times. */
  async get(path: string, params: Record<string, string> = {}): Promise<Record<string, unknown>> {
    for (let attempt = 1; ; attempt++) {
      try {
        const { res, body } = await this.call("GET", path, params);
        if (res.ok) return body;
        if (res.status < 500 || attempt >= 4) throw new ReadFailed(res.status, `GET ${path} answered ${res.status}: ${JSON.stringify(body)}`);
      } catch (err) {
        const transient = err instanceof TypeError || err instanceof BrokenAnswer;
        if (!transient || attempt >= 4) throw err;
      }
      await sleep(300 * 2 ** attempt);
    }
  }

  /** Every row of an offset-paged list (start/count, total_count). */
  async listAll(path: string, params: Record<string, string> = {}): Promise<Record<string, unknown>[]> {
    const rows: Record<string, unknown>[] = [];
    for (let start = 0; ; ) {
      const page = (await this.get(path, { ...params, start: String(start), count: "100" })) as { results?: Record<string, unknown>[]; total_count?: number };
      const results = page.results ?? [];
      rows.push(...results);
      start += results.length;
      if (results.length === 0 || page.total_count === undefined || start >= page.total_count) return rows;
    }
  }

  /** Like listAll, but a parent StaffLine does not know (404) gives null instead of an error. */
  async listChildren(path: string): Promise<Record<string, unknown>[] | null> {
    try {
      return await this.listAll(path);
    } catch (err) {
      if (err instanceof ReadFailed && err.status === 404) return null;
      throw err;
    }
  }

  /** POST a write once. Its answer, or "unknown" when StaffLine may have stored it without telling us. */
  async write(path: string, payload: Record<string, unknown>): Promise<WriteOutcome> {
    try {
      const { res, body } = await this.call("POST", path, {}, payload);
      if (res.status >= 500) return { kind: "unknown", detail: `${res.status} ${JSON.stringify(body)}` };
      return { kind: "answered", status: res.status, body };
    } catch (err) {
      if (err instanceof StafflineUnavailable) throw err;
      return { kind: "unknown", detail: (err as Error).message };
    }
  }
}
