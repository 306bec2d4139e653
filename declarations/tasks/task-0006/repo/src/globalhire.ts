import type { Config } from "./config.ts";

/** A candidate as GlobalHire serves it. */
export interface Candidate {
  id: string;
  updated_at: string;
  archived: boolean;
  [field: string]: unknown;
}

/** One page of a list endpoint. */
export interface Page<T> {
  items: T[];
  total_count: number;
}

/** Records per page. */
export const PAGE_SIZE = 100;

/** Minimal GlobalHire Talent API v2 client (X-GH-Api-Key auth). */
export class GlobalHireClient {
  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  async get<T>(path: string, params: Record<string, string> = {}): Promise<T> {
    const query = new URLSearchParams(params);
    const url = `${this.config.baseUrl}${path}${query.size ? `?${query}` : ""}`;
    const res = await fetch(url, { headers: { "X-GH-Api-Key": this.config.apiKey, accept: "application/json" } });
    const text = await res.text();
    if (!res.ok) throw new Error(`GET ${path}?${query} failed with ${res.status}: ${text.slice(0, 200)}`);
    return JSON.parse(text) as T;
  }

  /** One page of candidates from `offset`, optionally only those changed since a watermark. */
  candidatePage(offset: number, since?: string): Promise<Page<Candidate>> {
    const params: Record<string, string> = { offset: String(offset), limit: String(PAGE_SIZE) };
    if (since) params.modified_since = since;
    return this.get<Page<Candidate>>("/v2/candidates", params);
  }
}
