import type { Config } from "./config.ts";

/** A record as CrewCall serves it. */
export interface CrewRecord {
  id: number | string;
  [field: string]: unknown;
}

/** Records per page. */
export const PAGE_SIZE = 100;

/** A minimal CrewCall Partner API client. */
export class CrewCallClient {
  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  private async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const res = await fetch(`${this.config.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Token ${this.config.apiKey}`, accept: "application/json", ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  async get<T>(path: string): Promise<T> {
    const res = await this.call("GET", path);
    if (res.status !== 200) throw new Error(`GET ${path} failed with ${res.status}`);
    return res.body as T;
  }

  async post<T>(path: string, body: unknown): Promise<T> {
    const res = await this.call("POST", path, body);
    if (res.status >= 300) throw new Error(`POST ${path} failed with ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body as T;
  }

  /** Every record of a list, page by page. */
  async all(path: string): Promise<CrewRecord[]> {
    const out: CrewRecord[] = [];
    for (let offset = 0; ; offset += PAGE_SIZE) {
      const page = await this.get<{ records: CrewRecord[] }>(`${path}?offset=${offset}&limit=${PAGE_SIZE}`);
      out.push(...page.records);
      if (page.records.length < PAGE_SIZE) return out;
    }
  }
}
