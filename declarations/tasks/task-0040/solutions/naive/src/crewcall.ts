import type { Config } from "./config.ts";

/** A record as CrewCall serves it. */
export interface CrewRecord {
  id: number | string;
  updated_at: string;
  [field: string]: unknown;
}

/** CrewCall kept failing on one request: the run stops and the next one finishes the job. */
export class GaveUp extends Error {}

/** Largest page CrewCall serves. */
export const PAGE_SIZE = 200;
/** Pauses before retrying a 5xx; after the last, the request has failed for several seconds and the run gives up. */
const BACKOFF_MS = [500, 1000, 2000];
/** A wait CrewCall asks for that is longer than this is left to the scheduler's next run. */
const LONGEST_WAIT_S = 60;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CrewCall Partner API client: waits as 429s and 503s ask, retries a 5xx in place, gives up when a request keeps failing. */
export class CrewCallClient {
  private readonly config: Config;
  /** CrewCall's clock at the first answer of this process (X-CrewCall-Time). */
  firstServerTime: string | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  async get<T>(path: string, params: Record<string, string> = {}): Promise<T> {
    const query = new URLSearchParams(params);
    const url = `${this.config.baseUrl}${path}${query.size ? `?${query}` : ""}`;
    let failures = 0;
    for (;;) {
      let res: Response | null = null;
      try {
        res = await fetch(url, { headers: { Authorization: `Token ${this.config.apiKey}`, accept: "application/json" } });
      } catch {
        res = null;
      }
      const text = res ? await res.text() : "";
      if (res && this.firstServerTime === null) this.firstServerTime = res.headers.get("x-crewcall-time");
      if (res?.ok) return JSON.parse(text) as T;
      const status = res?.status ?? 0;
      if (res && (status === 429 || status === 503)) {
        const wait = Number(res.headers.get("retry-after") ?? "1");
        const seconds = Number.isFinite(wait) && wait > 0 ? wait : 1;
        if (seconds > LONGEST_WAIT_S) throw new GaveUp(`GET ${path}: CrewCall asks to wait ${seconds}s (${status})`);
        await sleep(seconds * 1000 + 100);
        continue;
      }
      if (status === 0 || status >= 500) {
        if (failures >= BACKOFF_MS.length) throw new GaveUp(`GET ${path}?${query} kept failing (last ${status || "network error"})`);
        await sleep(BACKOFF_MS[failures]);
        failures += 1;
        continue;
      }
      throw new Error(`GET ${path}?${query} failed with ${status}: ${text.slice(0, 200)}`);
    }
  }

  /** One page of a list from `offset`. */
  async page(path: string, offset: number, limit: number, extra: Record<string, string> = {}): Promise<CrewRecord[]> {
    const body = await this.get<{ records: CrewRecord[] }>(path, { ...extra, offset: String(offset), limit: String(limit) });
    return body.records;
  }

  /** Every record of a list (a changes or deletions feed), page by page. */
  async all(path: string, extra: Record<string, string> = {}): Promise<CrewRecord[]> {
    const out: CrewRecord[] = [];
    const ids = new Set<string>();
    for (let offset = 0; ; ) {
      const page = await this.page(path, offset, PAGE_SIZE, extra);
      for (const r of page) {
        const key = `${r.object ?? ""}:${r.id}`;
        if (ids.has(key)) continue;
        ids.add(key);
        out.push(r);
      }
      offset += page.length;
      if (page.length < PAGE_SIZE) return out;
    }
  }
}
