import type { Config } from "./config.ts";

/** HireWire: X-API-Key header, pages numbered from 1, at most 50 per page. */
export async function hirewireCandidates(config: Config): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${config.hirewireUrl}/v1/candidates?page=${page}&per_page=50`, { headers: { "X-API-Key": config.hirewireKey } });
    if (!res.ok) throw new Error(`HireWire list failed: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { data: Record<string, unknown>[]; total: number };
    rows.push(...body.data);
    if (body.data.length < 50 || rows.length >= body.total) return rows;
  }
}

/** TalentForge: client credentials -> access token -> session, then X-TF-Session on every call. */
export class TalentForge {
  private readonly config: Config;
  private session: string | null = null;
  constructor(config: Config) {
    this.config = config;
  }

  private async login(): Promise<string> {
    if (this.session) return this.session;
    const form = new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.talentforgeClientId, client_secret: this.config.talentforgeClientSecret });
    const tok = await fetch(`${this.config.talentforgeUrl}/oauth/token`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: form });
    if (!tok.ok) throw new Error(`token request failed: ${tok.status}`);
    const { access_token } = (await tok.json()) as { access_token: string };
    const ses = await fetch(`${this.config.talentforgeUrl}/rest/login`, { method: "POST", headers: { Authorization: `Bearer ${access_token}` } });
    if (!ses.ok) throw new Error(`login failed: ${ses.status}`);
    this.session = ((await ses.json()) as { session_token: string }).session_token;
    return this.session;
  }

  async request(method: string, path: string, body?: unknown): Promise<unknown> {
    const session = await this.login();
    const headers: Record<string, string> = { "X-TF-Session": session };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(`${this.config.talentforgeUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${path} failed: ${res.status} ${await res.text()}`);
    return res.json();
  }

  async candidates(): Promise<Record<string, unknown>[]> {
    const rows: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    do {
      const page = (await this.request("GET", `/rest/candidates?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`)) as { data: Record<string, unknown>[]; next_cursor: string | null };
      rows.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor);
    return rows;
  }
}
