import type { Config } from "./config.ts";

/** A record as CrewCall serves it. */
export interface CrewRecord {
  id: number | string;
  updated_at: string;
  [field: string]: unknown;
}

/** Records per page. */
export const PAGE_SIZE = 100;

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

  /** One page of a list from `offset`. */
  async page(path: string, offset: number): Promise<CrewRecord[]> {
    const body = await this.get<{ records: CrewRecord[] }>(path, { offset: String(offset), limit: String(PAGE_SIZE) });
    return body.records;
  }
}
