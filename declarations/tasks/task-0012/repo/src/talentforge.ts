/** Read-only TalentForge client: OAuth client credentials, then a session from /rest/login. */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type ApiRecord = Record<string, unknown> & { id: string };

export interface ClientConfig {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

export function clientConfig(): ClientConfig {
  const need = (name: string) => {
    const v = process.env[name];
    if (!v) throw new Error(`missing environment variable ${name}`);
    return v;
  };
  return { baseUrl: need("TALENTFORGE_BASE_URL").replace(/\/$/, ""), clientId: need("TALENTFORGE_CLIENT_ID"), clientSecret: need("TALENTFORGE_CLIENT_SECRET") };
}

export class TalentForge {
  private session: string | null = null;
  private readonly config: ClientConfig;

  constructor(config: ClientConfig) {
    this.config = config;
  }

  private async send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: unknown }> {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}${path}`, { method, headers, body });
      const text = await res.text();
      if (res.status === 429 && attempt < 6) {
        const s = Number(res.headers.get("retry-after"));
        await sleep(Number.isFinite(s) && s >= 0 ? s * 1000 + 100 : 1000);
        continue;
      }
      if (res.status >= 500 && attempt < 4) {
        await sleep(300 * attempt);
        continue;
      }
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = text;
      }
      return { status: res.status, body: parsed };
    }
  }

  private async login(): Promise<string> {
    const form = new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret });
    const tok = await this.send("POST", "/oauth/token", { "content-type": "application/x-www-form-urlencoded", accept: "application/json" }, form.toString());
    if (tok.status !== 200) throw new Error(`POST /oauth/token answered ${tok.status}: ${JSON.stringify(tok.body)}`);
    const ses = await this.send("POST", "/rest/login", { authorization: `Bearer ${(tok.body as { access_token: string }).access_token}`, accept: "application/json" });
    if (ses.status < 200 || ses.status >= 300) throw new Error(`POST /rest/login answered ${ses.status}: ${JSON.stringify(ses.body)}`);
    return (ses.body as { session_token: string }).session_token;
  }

  /** GET a data path. A 401 (missing, invalid or expired credentials, per the docs) opens a new session once. */
  async get(path: string, params: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
    const query = new URLSearchParams(params).toString();
    const target = query ? `${path}?${query}` : path;
    for (let tries = 0; ; tries++) {
      this.session ??= await this.login();
      const r = await this.send("GET", target, { "x-tf-session": this.session, accept: "application/json" });
      if (r.status === 401 && tries === 0) {
        this.session = null;
        continue;
      }
      if (r.status === 200 || r.status === 404) return r;
      throw new Error(`GET ${path} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
    }
  }

  /** Every record of a cursor-paged list. */
  async list(path: string, params: Record<string, string> = {}): Promise<ApiRecord[]> {
    const rows: ApiRecord[] = [];
    let cursor: string | null = null;
    do {
      const r = await this.get(path, { ...params, limit: "100", ...(cursor ? { cursor } : {}) });
      const page = r.body as { data: ApiRecord[]; next_cursor?: string | null };
      rows.push(...page.data);
      cursor = page.next_cursor ?? null;
    } while (cursor);
    return rows;
  }
}
