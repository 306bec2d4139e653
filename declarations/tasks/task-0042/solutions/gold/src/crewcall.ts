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

  /**
   * Every record of a list, once each; a page shorter than asked for is the last. Workers post
   * while the job reads, and new posts go to the head of the list: a record met twice means others
   * moved ahead of the offset and were stepped over, so the head is read again until a page brings
   * nothing new.
   */
  async all(path: string): Promise<CrewRecord[]> {
    const byId = new Map<string, CrewRecord>();
    const page = async (offset: number) => (await this.get<{ records: CrewRecord[] }>(path, { offset: String(offset), limit: String(PAGE_SIZE) })).records;
    let twice = 0;
    for (let offset = 0; ; ) {
      const records = await page(offset);
      for (const r of records) {
        if (byId.has(String(r.id))) twice++;
        byId.set(String(r.id), r);
      }
      offset += records.length;
      if (records.length < PAGE_SIZE) break;
    }
    if (twice > 0)
      for (let offset = 0; ; offset += PAGE_SIZE) {
        const records = await page(offset);
        const fresh = records.filter((r) => !byId.has(String(r.id)));
        for (const r of records) byId.set(String(r.id), r);
        console.error(`${path}: ${twice} records met twice; the head read again brought ${fresh.length}`);
        if (fresh.length === 0 || records.length < PAGE_SIZE) break;
      }
    return [...byId.values()];
  }
}
