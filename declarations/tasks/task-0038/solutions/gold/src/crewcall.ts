import type { Config } from "./config.ts";

/** A record as CrewCall serves it (a worker, or an entry of the deletions feed). */
export interface CrewRecord {
  id: number | string;
  [field: string]: unknown;
}

/** Records asked for per page: CrewCall's largest (it cuts a larger ask to 200 without saying so in the answer). */
const PAGE_SIZE = 200;

/** Minimal CrewCall Partner API client (Authorization: Token). */
export class CrewCallClient {
  private readonly config: Config;
  /** CrewCall's clock at this process's first answer (X-CrewCall-Time). */
  serverTime: string | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  async get<T>(path: string, params: Record<string, string> = {}): Promise<T> {
    const query = new URLSearchParams(params);
    const url = `${this.config.baseUrl}${path}${query.size ? `?${query}` : ""}`;
    for (;;) {
      const res = await fetch(url, { headers: { Authorization: `Token ${this.config.apiKey}`, accept: "application/json" } });
      const text = await res.text();
      if (this.serverTime === null && res.ok) this.serverTime = res.headers.get("x-crewcall-time");
      if (res.status === 429) {
        // Throttled: wait as long as CrewCall asks, then ask again.
        const seconds = Number(res.headers.get("retry-after"));
        await new Promise((r) => setTimeout(r, (Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000 + 100));
        continue;
      }
      if (!res.ok) throw new Error(`GET ${path}?${query} failed with ${res.status}: ${text.slice(0, 200)}`);
      return JSON.parse(text) as T;
    }
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

  /** Records of a list changed at or after `since`, page by page until an empty page (a renumbering makes these feeds long). */
  async changedSince(path: string, since: string): Promise<CrewRecord[]> {
    const out: CrewRecord[] = [];
    for (let offset = 0; ; ) {
      const { records } = await this.get<{ records: CrewRecord[] }>(path, { changed_since: since, offset: String(offset), limit: String(PAGE_SIZE) });
      if (records.length === 0) return out;
      out.push(...records);
      offset += records.length;
    }
  }
}
