import type { Config } from "./config.ts";

/** A record as CrewCall serves it (a worker, or an entry of the deletions feed). */
export interface CrewRecord {
  id: number | string;
  [field: string]: unknown;
}

/** Records asked for per page (CrewCall's maximum). */
const PAGE_SIZE = 200;
const MAX_ATTEMPTS = 8;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CrewCall Partner API reads: a failed page is retried in place, never skipped; 429s wait as long as Retry-After asks. */
export class CrewCallClient {
  private readonly config: Config;
  /** CrewCall's own clock, from the X-CrewCall-Time header of the first successful answer this run. */
  serverTimeAtStart: string | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  async get<T>(path: string, params: Record<string, string> = {}): Promise<T> {
    const query = new URLSearchParams(params);
    const url = `${this.config.baseUrl}${path}?${query}`;
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(url, { headers: { Authorization: `Token ${this.config.apiKey}`, accept: "application/json" } });
      const text = await res.text();
      if (res.ok) {
        this.serverTimeAtStart ??= res.headers.get("x-crewcall-time");
        return JSON.parse(text) as T;
      }
      const retryable = res.status === 429 || res.status >= 500;
      if (!retryable || attempt >= MAX_ATTEMPTS) throw new Error(`GET ${path}?${query} failed with ${res.status}: ${text.slice(0, 200)}`);
      const after = Number(res.headers.get("retry-after"));
      await sleep(res.status === 429 && Number.isFinite(after) && after > 0 ? after * 1000 : 100 * attempt);
    }
  }

  /**
   * Every record of a list (changed at or after `since`, when given); a page shorter than asked for
   * is the last. A record turning up twice means others moved ahead of the offset while the list
   * was read (CrewCall re-ranks its lists): the head is then read again until a page brings
   * nothing new, so none of them is missed.
   */
  async list(path: string, since: string | null): Promise<CrewRecord[]> {
    const byId = new Map<string, CrewRecord>();
    const page = async (offset: number) => {
      const params: Record<string, string> = { offset: String(offset), limit: String(PAGE_SIZE) };
      if (since) params.changed_since = since;
      return (await this.get<{ records: CrewRecord[] }>(path, params)).records;
    };
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
    if (twice > 0) {
      for (let offset = 0; ; offset += PAGE_SIZE) {
        const records = await page(offset);
        const fresh = records.filter((r) => !byId.has(String(r.id)));
        for (const r of records) byId.set(String(r.id), r);
        console.error(`${path}: ${twice} records turned up twice; the head read again brought ${fresh.length}`);
        if (fresh.length === 0 || records.length < PAGE_SIZE) break;
      }
    }
    return [...byId.values()];
  }
}
