import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Page = { data: Record<string, unknown>[]; next_cursor: string | null };

/** TalentForge client written from the documentation. */
export class TalentforgeClient {
  private readonly config: Config;
  private session: string | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  // Sessions slide while in use (per the docs), so one login per command is enough.
  private async login(): Promise<string> {
    const form = new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret });
    const tokenRes = await fetch(`${this.config.baseUrl}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form.toString() });
    if (!tokenRes.ok) throw new Error(`POST /oauth/token failed with ${tokenRes.status}`);
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    const loginRes = await fetch(`${this.config.baseUrl}/rest/login`, { method: "POST", headers: { authorization: `Bearer ${access_token}` } });
    if (!loginRes.ok) throw new Error(`POST /rest/login failed with ${loginRes.status}`);
    return ((await loginRes.json()) as { session_token: string }).session_token;
  }

  async get(path: string, params: Record<string, string>): Promise<unknown> {
    this.session ??= await this.login();
    const query = new URLSearchParams(params);
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}${path}${query.size ? `?${query}` : ""}`, { headers: { "X-TF-Session": this.session } });
      if (res.ok) return res.json();
      if (res.status === 429 && attempt < 6) {
        await sleep(1000 * Number(res.headers.get("retry-after") ?? 1));
        continue;
      }
      throw new Error(`GET ${path} failed with ${res.status}`);
    }
  }

  /** Cursor paging as documented; a short page is the last one. */
  async listAll(path: string, params: Record<string, string>, limit: number): Promise<Record<string, unknown>[]> {
    const rows: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page = (await this.get(path, { ...params, limit: String(limit), ...(cursor ? { cursor } : {}) })) as Page;
      rows.push(...page.data);
      cursor = page.next_cursor;
      if (!cursor || page.data.length < limit) return rows;
    }
  }
}
