import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type ApiRecord = Record<string, unknown> & { id: string; updated_at: string; deleted?: boolean };

/** TalentLoop REST client as the API documentation describes it. */
export class TalentLoopClient {
  private readonly config: Config;
  private token: string | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  private async accessToken(): Promise<string> {
    if (this.token) return this.token;
    const res = await fetch(`${this.config.baseUrl}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret }),
    });
    if (!res.ok) throw new Error(`token request failed with ${res.status}`);
    this.token = ((await res.json()) as { access_token: string }).access_token;
    return this.token;
  }

  async get(path: string, params: Record<string, string> = {}): Promise<unknown> {
    const query = new URLSearchParams(params);
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}${path}${query.size ? `?${query}` : ""}`, { headers: { authorization: `Bearer ${await this.accessToken()}` } });
      if (res.ok) return res.json();
      await res.arrayBuffer();
      if ((res.status === 429 || res.status >= 500) && attempt < 5) {
        await sleep(1000 * (Number(res.headers.get("retry-after")) || attempt));
        continue;
      }
      throw new Error(`GET ${path} failed with ${res.status}`);
    }
  }

  /** Every record of a list, 500 per page (the documented maximum), following next_cursor. */
  async listAll(path: string, params: Record<string, string> = {}): Promise<ApiRecord[]> {
    const rows: ApiRecord[] = [];
    let cursor: string | null = null;
    do {
      const page = (await this.get(path, { ...params, limit: "500", ...(cursor ? { cursor } : {}) })) as { data: ApiRecord[]; next_cursor: string | null };
      rows.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor);
    return rows;
  }
}
