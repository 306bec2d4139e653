import { randomUUID } from "node:crypto";
import type { Config } from "./config.ts";

/** A HireWire candidate; timestamps are integer milliseconds since the epoch (docs: Syncing, Timestamps). */
export interface Candidate {
  id: number;
  email: string;
  stage: string;
  updated_at: number;
  created_at: number;
  [field: string]: unknown;
}

export interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

/** 503: HireWire is in a maintenance window. */
export class Maintenance extends Error {}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MAX_ATTEMPTS = 5;

/** A fresh Idempotency-Key for one logical write; its retries reuse it (docs: a repeat returns the first response). */
export const newKey = () => randomUUID();

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
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
      const text = await res.text();
      // Rate limits: the docs say Retry-After holds the wait in seconds.
      if (res.status === 429 && attempt < MAX_ATTEMPTS) {
        const seconds = Number(res.headers.get("retry-after"));
        await sleep((Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000);
        continue;
      }
      if (res.status === 503) throw new Maintenance(`503 on ${method} ${path}`);
      // 500, 502, 504: the docs say retry safely (with the same Idempotency-Key).
      if (res.status >= 500 && attempt < MAX_ATTEMPTS) {
        await sleep(300 * attempt);
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

  async ok(method: string, path: string): Promise<Answer> {
    const a = await this.call(method, path);
    if (a.status < 200 || a.status >= 300) throw new Error(`${method} ${path} answered ${a.status}`);
    return a;
  }

  /** Every page of a list: the first page, then the Link header's next pages. */
  async listAll(path: string, query: Record<string, string> = {}): Promise<Candidate[]> {
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

export function explain(body: unknown): string {
  const b = body as { detail?: unknown } | null;
  return typeof b?.detail === "string" ? b.detail : JSON.stringify(body);
}
