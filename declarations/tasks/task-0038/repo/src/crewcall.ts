import type { Config } from "./config.ts";

/** A record as CrewCall serves it (a worker, or an entry of the deletions feed). */
export interface CrewRecord {
  id: number | string;
  [field: string]: unknown;
}

/** Records asked for per page. */
const PAGE_SIZE = 500;

/** Minimal CrewCall Partner API client (Authorization: Token). */
export class CrewCallClient {
  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  async get<T>(path: string, params: Record<string, string> = {}): Promise<T> {
    const query = new URLSearchParams(params);
    const url = `${this.config.baseUrl}${path}${query.size ? `?${query}` : ""}`;
    const res = await fetch(url, { headers: { Authorization: `Token ${this.config.apiKey}`, accept: "application/json" } });
    const text = await res.text();
    if (!res.ok) throw new Error(`GET ${path}?${query} failed with ${res.status}: ${text.slice(0, 200)}`);
    return JSON.parse(text) as T;
  }

  /** Every record of a list, page by page until an empty page. */
  async all(path: string): Promise<CrewRecord[]> {
    const out: CrewRecord[] = [];
    for (let offset = 0; ; ) {
      const { records } = await this.get<{ records: CrewRecord[] }>(path, { offset: String(offset), limit: String(PAGE_SIZE) });
      if (records.length === 0) return out;
      out.push(...records);
      offset += records.length;
    }
  }

  /** Records of a list changed at or after `since`; a page shorter than asked for is the last. */
  async changedSince(path: string, since: string): Promise<CrewRecord[]> {
    const out: CrewRecord[] = [];
    for (let offset = 0; ; ) {
      const { records } = await this.get<{ records: CrewRecord[] }>(path, { changed_since: since, offset: String(offset), limit: String(PAGE_SIZE) });
      out.push(...records);
      offset += records.length;
      if (records.length < PAGE_SIZE) return out;
    }
  }
}
