import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A TalentForge record as the API serves it. */
export type ApiRecord = Record<string, unknown> & { id: string };

const MAX_TRIES = 5;
/** Fresh credential chains one read may ask for before a refusal counts as a real permission problem. */
const MAX_REAUTH = 2;

function retryAfterMs(header: string | null): number {
  const s = Number(header);
  return header && Number.isFinite(s) && s >= 0 ? s * 1000 + 100 : 1000;
}

/**
 * Read-only TalentForge client. Auth is two steps: OAuth client credentials
 * for an access token, then `POST /rest/login` for a session sent as
 * `X-TF-Session`. Sessions end a fixed time after they open however busy they
 * are, and TalentForge drops or revokes credentials early: a 401, or a 403
 * `token_revoked`, gets a whole new chain and the same read again.
 */
export class TalentForge {
  private readonly config: Config;
  private session: string | null = null;
  private sessionUntil = 0;
  private opening: Promise<void> | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  /** One HTTP exchange: waits out 429s as told, backs off on 5xx and network errors. */
  private async send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: unknown }> {
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(`${this.config.baseUrl}${path}`, { method, headers, body });
      } catch (err) {
        if (attempt >= MAX_TRIES) throw err;
        await sleep(200 * 2 ** attempt);
        continue;
      }
      const text = await res.text();
      if (res.status === 429 && attempt < MAX_TRIES + 3) {
        await sleep(retryAfterMs(res.headers.get("retry-after")));
        continue;
      }
      if (res.status >= 500 && attempt < MAX_TRIES) {
        await sleep(200 * 2 ** attempt);
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

  private async openSession(): Promise<void> {
    const form = new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret });
    const tok = await this.send("POST", "/oauth/token", { "content-type": "application/x-www-form-urlencoded", accept: "application/json" }, form.toString());
    if (tok.status !== 200) throw new Error(`POST /oauth/token answered ${tok.status}: ${JSON.stringify(tok.body)}`);
    const { access_token } = tok.body as { access_token: string };
    const opened = Date.now();
    const ses = await this.send("POST", "/rest/login", { authorization: `Bearer ${access_token}`, accept: "application/json" });
    if (ses.status < 200 || ses.status >= 300) throw new Error(`POST /rest/login answered ${ses.status}: ${JSON.stringify(ses.body)}`);
    const { session_token, expires_in } = ses.body as { session_token: string; expires_in?: number };
    this.session = session_token;
    // The lifetime counts from the login, not from the last use: renew a minute early.
    this.sessionUntil = opened + Math.max(30, (expires_in ?? 900) - 60) * 1000;
  }

  private async currentSession(): Promise<string> {
    while (!this.session || Date.now() >= this.sessionUntil) {
      this.opening ??= this.openSession().finally(() => (this.opening = null));
      await this.opening;
    }
    return this.session;
  }

  /** GET a data path; `status` 200 or 404 (anything else throws). */
  async get(path: string, params: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
    const query = new URLSearchParams(params).toString();
    const target = query ? `${path}?${query}` : path;
    for (let reauth = 0; ; reauth++) {
      const session = await this.currentSession();
      const r = await this.send("GET", target, { "x-tf-session": session, accept: "application/json" });
      if ((r.status === 401 || r.status === 403) && reauth < MAX_REAUTH) {
        const code = (r.body as { error?: { code?: string } } | null)?.error?.code ?? "";
        console.error(`GET ${path}: ${r.status} ${code}; opening a new session`);
        if (this.session === session) this.session = null;
        continue;
      }
      if (r.status === 200 || r.status === 404) return r;
      throw new Error(`GET ${path} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
    }
  }

  /** Every record of a cursor-paged list, the filter repeated on every page. */
  async list(path: string, params: Record<string, string> = {}): Promise<ApiRecord[]> {
    const rows: ApiRecord[] = [];
    let cursor: string | null = null;
    do {
      const r = await this.get(path, { ...params, limit: "100", ...(cursor ? { cursor } : {}) });
      if (r.status !== 200) throw new Error(`GET ${path} answered ${r.status}`);
      const page = r.body as { data: ApiRecord[]; next_cursor?: string | null };
      rows.push(...page.data);
      cursor = page.next_cursor ?? null;
    } while (cursor);
    return rows;
  }
}
