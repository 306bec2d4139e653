import type { Config } from "./config.ts";

/** A record as CrewCall serves it (a worker, or an entry of the deletions feed). */
export interface CrewRecord {
  id: number | string;
  [field: string]: unknown;
}

/** Records asked for per page. */
const PAGE_SIZE = 100;

/** Minimal CrewCall Partner API client (Authorization: Token). */
export class CrewCallClient {
  private readonly config: Config;
  /** CrewCall's own clock, from the X-CrewCall-Time header of the first answer this run. */
  serverTimeAtStart: string | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  async get<T>(path: string, params: Record<string, string> = {}): Promise<T> {
    const query = new URLSearchParams(params);
    const res = await fetch(`${this.config.baseUrl}${path}?${query}`, { headers: { Authorization: `Token ${this.config.apiKey}`, accept: "application/json" } });
    this.serverTimeAtStart ??= res.headers.get("x-crewcall-time");
    const text = await res.text();
    if (!res.ok) throw new Error(`GET ${path}?${query} failed with ${res.status}: ${text.slice(0, 200)}`);
    return JSON.parse(text) as T;
  }

  /** Every record of a list (changed at or after `since`, when given), page by page until an empty page. */
  async list(path: string, since: string | null): Promise<CrewRecord[]> {
    const out: CrewRecord[] = [];
    for (let offset = 0; ; offset += PAGE_SIZE) {
      const params: Record<string, string> = { offset: String(offset), limit: String(PAGE_SIZE) };
      if (since) params.changed_since = since;
      let records: CrewRecord[];
      try {
        ({ records } = await this.get<{ records: CrewRecord[] }>(path, params));
      } catch (err) {
        // CrewCall has the odd bad minute; a census a few workers off is better than none.
        console.error(`census: skipping a page of ${path}: ${err instanceof Error ? err.message : err}`);
        continue;
      }
      if (records.length === 0) return out;
      out.push(...records);
    }
  }
}
