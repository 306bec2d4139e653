// TalentForge API client written from the partner documentation.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type TfRecord = { id: string; updated_at: string; is_deleted?: boolean; [field: string]: unknown };

export class TalentForgeApi {
  private session: string | null = null;
  private readonly base: string;

  constructor() {
    this.base = (process.env.TALENTFORGE_BASE_URL ?? "").replace(/\/$/, "");
    if (!this.base) throw new Error("TALENTFORGE_BASE_URL is not set");
  }

  /** Client credentials, then a session. The docs say sessions slide while in use, so one is kept for the life of the process. */
  private async login(): Promise<string> {
    const tokenRes = await fetch(`${this.base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: process.env.TALENTFORGE_CLIENT_ID ?? "",
        client_secret: process.env.TALENTFORGE_CLIENT_SECRET ?? "",
      }).toString(),
    });
    if (!tokenRes.ok) throw new Error(`token request failed: ${tokenRes.status}`);
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    const loginRes = await fetch(`${this.base}/rest/login`, { method: "POST", headers: { authorization: `Bearer ${access_token}` } });
    if (!loginRes.ok) throw new Error(`login failed: ${loginRes.status}`);
    const { session_token } = (await loginRes.json()) as { session_token: string };
    this.session = session_token;
    return session_token;
  }

  /** GET with the session; a 401 (missing, invalid or expired credentials, per the docs) logs in again once. */
  async get(path: string, query: Record<string, string> = {}): Promise<Response> {
    const qs = new URLSearchParams(query).toString();
    const url = `${this.base}${path}${qs ? `?${qs}` : ""}`;
    for (let attempt = 0; attempt < 6; attempt++) {
      const session = this.session ?? (await this.login());
      const res = await fetch(url, { headers: { "X-TF-Session": session } });
      if (res.status === 401 && attempt === 0) {
        this.session = null;
        continue;
      }
      if (res.status === 429) {
        await sleep(Number(res.headers.get("retry-after") ?? "1") * 1000);
        continue;
      }
      if (res.status >= 500) {
        await sleep(500);
        continue;
      }
      return res;
    }
    throw new Error(`GET ${path}: gave up`);
  }

  async getRecord(path: string): Promise<TfRecord> {
    const res = await this.get(path);
    if (!res.ok) throw new Error(`GET ${path} failed: ${res.status} ${await res.text()}`);
    return (await res.json()) as TfRecord;
  }

  /** All pages of a list (cursor paging, 100 per page). */
  async listAll(path: string, query: Record<string, string> = {}): Promise<TfRecord[]> {
    const out: TfRecord[] = [];
    let cursor = "";
    for (;;) {
      const res = await this.get(path, { ...query, limit: "100", ...(cursor ? { cursor } : {}) });
      if (!res.ok) throw new Error(`GET ${path} failed: ${res.status}`);
      const page = (await res.json()) as { data: TfRecord[]; next_cursor: string | null };
      out.push(...page.data);
      if (!page.next_cursor) return out;
      cursor = page.next_cursor;
    }
  }
}
