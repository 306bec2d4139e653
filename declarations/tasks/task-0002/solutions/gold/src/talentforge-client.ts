import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Page = { data: Record<string, unknown>[]; next_cursor: string | null };

/**
 * TalentForge client: OAuth client credentials, then a session from /rest/login.
 * Sessions end at a fixed time after they are opened (using them does not extend
 * them), so the client renews ahead of the end and once more on a 401.
 */
export class TalentforgeClient {
  private readonly config: Config;
  private session: { token: string; renewAt: number } | null = null;
  private opening: Promise<void> | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  private async openSession(): Promise<void> {
    const form = new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret });
    const tokenRes = await this.send(`${this.config.baseUrl}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form.toString() });
    if (!tokenRes.ok) throw new Error(`POST /oauth/token failed with ${tokenRes.status}`);
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    const started = Date.now();
    const loginRes = await this.send(`${this.config.baseUrl}/rest/login`, { method: "POST", headers: { authorization: `Bearer ${access_token}` } });
    if (!loginRes.ok) throw new Error(`POST /rest/login failed with ${loginRes.status}`);
    const { session_token, expires_in } = (await loginRes.json()) as { session_token: string; expires_in: number };
    this.session = { token: session_token, renewAt: started + Math.max(30, expires_in - 60) * 1000 };
  }

  private async ensureSession(force = false): Promise<string> {
    if (force) this.session = null;
    while (!this.session || Date.now() >= this.session.renewAt) {
      this.opening ??= this.openSession().finally(() => (this.opening = null));
      await this.opening;
    }
    return this.session.token;
  }

  /** fetch with waits on 429 (Retry-After) and backoff on 5xx and network errors. */
  private async send(url: string, init: RequestInit): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(url, init);
      } catch (err) {
        if (attempt >= 5) throw err;
        await sleep(200 * 2 ** attempt);
        continue;
      }
      if (res.status === 429 && attempt < 8) {
        await res.arrayBuffer();
        const wait = Number(res.headers.get("retry-after"));
        await sleep(1000 * (Number.isFinite(wait) && wait > 0 ? wait : 1) + 50);
        continue;
      }
      if (res.status >= 500 && attempt < 5) {
        await res.arrayBuffer();
        await sleep(200 * 2 ** attempt);
        continue;
      }
      return res;
    }
  }

  /** GET a data path with parameters; one fresh session on a 401. */
  async get(path: string, params: Record<string, string>): Promise<unknown> {
    const query = new URLSearchParams(params);
    const url = `${this.config.baseUrl}${path}${query.size ? `?${query}` : ""}`;
    for (let attempt = 1; ; attempt++) {
      const session = await this.ensureSession(false);
      const res = await this.send(url, { headers: { "X-TF-Session": session } });
      if (res.status === 401 && attempt < 3) {
        await res.arrayBuffer();
        if (this.session?.token === session) await this.ensureSession(true);
        continue;
      }
      const body = await res.json().catch(() => ({}));
      if (!res.ok) throw new Error(`GET ${path} failed with ${res.status}: ${JSON.stringify(body)}`);
      return body;
    }
  }

  /** Every row of a cursor-paged list: follows next_cursor until it is null, whatever the page size. */
  async listAll(path: string, params: Record<string, string>, limit: number): Promise<Record<string, unknown>[]> {
    const rows: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    do {
      const page = (await this.get(path, { ...params, limit: String(limit), ...(cursor ? { cursor } : {}) })) as Page;
      rows.push(...page.data);
      cursor = page.next_cursor ?? null;
    } while (cursor);
    return rows;
  }
}
