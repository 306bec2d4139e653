import type { Config } from "./config.ts";

/** A record as CrewCall serves it. */
export interface CrewRecord {
  id: number | string;
  [field: string]: unknown;
}

const PAGE_SIZE = 200;
const MAX_ATTEMPTS = 8;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CrewCall Partner API reads: waits out 429s as long as Retry-After asks, retries 5xx in place. */
export class CrewCallClient {
  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  async get<T>(path: string, params: Record<string, string>): Promise<T> {
    const query = new URLSearchParams(params);
    const url = `${this.config.baseUrl}${path}?${query}`;
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(url, { headers: { Authorization: `Token ${this.config.apiKey}`, accept: "application/json" } });
      const text = await res.text();
      if (res.ok) return JSON.parse(text) as T;
      const retryable = res.status === 429 || res.status >= 500;
      if (!retryable || attempt >= MAX_ATTEMPTS) throw new Error(`GET ${path}?${query} failed with ${res.status}: ${text.slice(0, 200)}`);
      const after = Number(res.headers.get("retry-after"));
      await sleep(res.status === 429 && Number.isFinite(after) && after > 0 ? after * 1000 : 100 * attempt);
    }
  }

  /** Every record of a list, page by page; a page shorter than asked for is the last. */
  async all(path: string): Promise<CrewRecord[]> {
    const out: CrewRecord[] = [];
    for (let offset = 0; ; ) {
      const { records } = await this.get<{ records: CrewRecord[] }>(path, { offset: String(offset), limit: String(PAGE_SIZE) });
      out.push(...records);
      offset += records.length;
      if (records.length < PAGE_SIZE) return out;
    }
  }
}
