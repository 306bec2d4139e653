import type { Config } from "./config.ts";

/** A page of a PlaceMint list. */
export interface Page<T> {
  results: T[];
  count: number;
  next_offset: number | null;
}

const PAGE_SIZE = 250;

/** The PlaceMint client: one access token, list reads. */
export class PlaceMintClient {
  private readonly config: Config;
  private token: string | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  private async mint(): Promise<string> {
    const res = await fetch(`${this.config.baseUrl}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret }),
    });
    if (!res.ok) throw new Error(`POST /oauth/token failed with ${res.status}`);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  async get<T>(path: string): Promise<T> {
    this.token ??= await this.mint();
    const res = await fetch(`${this.config.baseUrl}${path}`, { headers: { authorization: `Bearer ${this.token}` } });
    if (!res.ok) throw new Error(`GET ${path} failed with ${res.status}`);
    return (await res.json()) as T;
  }

  /** Every record of a list, a full page at a time. */
  async list<T>(path: string, params: Record<string, string> = {}): Promise<T[]> {
    const out: T[] = [];
    for (let offset = 0; ; offset += PAGE_SIZE) {
      const query = new URLSearchParams({ ...params, limit: String(PAGE_SIZE), offset: String(offset) });
      const page = await this.get<Page<T>>(`${path}?${query}`);
      out.push(...page.results);
      if (page.results.length < PAGE_SIZE) return out;
    }
  }
}
