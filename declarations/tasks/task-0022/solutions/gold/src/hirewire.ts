import type { Config } from "./config.ts";

/** A HireWire candidate as the API serves it (timestamps are epoch seconds, whatever the changelog says). */
export interface Candidate {
  id: number;
  stage: string;
  updated_at: number;
  created_at: number;
  [field: string]: unknown;
}

/** One answer of the API: status, parsed body, headers. */
export interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

/** HireWire announced a maintenance window (503): the run must stop. */
export class Maintenance extends Error {
  constructor(what: string) {
    super(`HireWire is in maintenance (503 on ${what})`);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const GLITCH_ATTEMPTS = 5;
const RATE_LIMIT_ATTEMPTS = 10;

/**
 * How long a Retry-After asks for, in ms. HireWire sends an HTTP date
 * (the docs say seconds); both forms are valid HTTP, so both are read.
 */
export function retryAfterMs(value: string | null, now = Date.now()): number {
  if (!value) return 1000;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? 1000 : Math.max(0, at - now);
}

/** HireWire v1 client: API key in a header, waits out 429s, retries glitches with the same idempotency key. */
export class HireWire {
  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  async call(method: string, path: string, opts: { body?: unknown; key?: string } = {}): Promise<Answer> {
    const url = path.startsWith("http") ? path : `${this.config.baseUrl}${path}`;
    const headers: Record<string, string> = { "X-API-Key": this.config.apiKey, accept: "application/json" };
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    if (opts.key) headers["Idempotency-Key"] = opts.key;
    let glitches = 0;
    let limited = 0;
    for (;;) {
      let res: Response;
      let text: string;
      try {
        res = await fetch(url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
        text = await res.text();
      } catch (err) {
        // The connection failed: the request may or may not have reached HireWire. The same key makes a retry safe.
        if (++glitches >= GLITCH_ATTEMPTS) throw err;
        await sleep(250 * glitches);
        continue;
      }
      if (res.status === 429 && ++limited < RATE_LIMIT_ATTEMPTS) {
        await sleep(retryAfterMs(res.headers.get("retry-after")) + 100);
        continue;
      }
      if (res.status === 503) throw new Maintenance(`${method} ${path}`);
      if (res.status >= 500 && ++glitches < GLITCH_ATTEMPTS) {
        await sleep(250 * glitches);
        continue;
      }
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      return { status: res.status, body, headers: res.headers };
    }
  }

  /** A call that must succeed; anything but a 2xx is an error. */
  async ok(method: string, path: string, opts: { body?: unknown; key?: string } = {}): Promise<Answer> {
    const a = await this.call(method, path, opts);
    if (a.status < 200 || a.status >= 300) throw new Error(`${method} ${path} answered ${a.status}: ${JSON.stringify(a.body).slice(0, 200)}`);
    return a;
  }

  /** Every page of a list, following the Link header from the first page. */
  async listAll(path: string, query: Record<string, string>): Promise<Candidate[]> {
    const out: Candidate[] = [];
    let next: string | null = `${path}?${new URLSearchParams({ ...query, per_page: "50" })}`;
    while (next) {
      const a = await this.ok("GET", next);
      out.push(...(a.body as { data: Candidate[] }).data);
      next = /<([^>]+)>;\s*rel="next"/.exec(a.headers.get("link") ?? "")?.[1] ?? null;
    }
    return out;
  }
}

/** HireWire's explanation of a refusal: its `detail`, else the field errors. */
export function explain(body: unknown): string {
  if (body && typeof body === "object") {
    const b = body as { detail?: unknown; errors?: { field?: string; message?: string }[] };
    if (typeof b.detail === "string" && b.detail) return b.detail;
    if (Array.isArray(b.errors)) return b.errors.map((e) => `${e.field} ${e.message}`).join("; ");
  }
  return JSON.stringify(body);
}
