import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An answer TalentForge gave that the caller has to deal with (validation errors, missing records). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly body: unknown;
  constructor(method: string, path: string, status: number, body: unknown) {
    super(`${method} ${path} failed with ${status}: ${JSON.stringify(body).slice(0, 300)}`);
    this.status = status;
    this.body = body;
    const err = (body as { error?: { code?: unknown } } | null)?.error;
    this.code = typeof err?.code === "string" ? err.code : null;
  }

  /** `field_errors` of a 422, as `field message; ...`. */
  fieldErrors(): string {
    const list = (this.body as { error?: { field_errors?: { field: string; message: string }[] } } | null)?.error?.field_errors;
    if (!Array.isArray(list) || !list.length) return this.message;
    return list.map((f) => `${f.field} ${f.message}`).join("; ");
  }
}

/** Wait before retry `attempt` (1-based) after a server error or a dropped connection. */
const backoffMs = (attempt: number) => 250 * 2 ** (attempt - 1);
const MAX_TRIES = 6;
/** Fresh sessions one call may ask for before a refusal counts as a real permission problem. */
const MAX_REAUTH = 2;

function retryAfterMs(header: string | null): number {
  const s = Number(header);
  if (header && Number.isFinite(s)) return Math.max(0, s) * 1000 + 50;
  const at = header ? Date.parse(header) : NaN;
  return Number.isNaN(at) ? 1000 : Math.max(0, at - Date.now()) + 250;
}

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/**
 * TalentForge client: OAuth client credentials, then a session exchange. A
 * session ends after a fixed lifetime, and TalentForge also revokes sessions
 * and access tokens early (it then answers 401, or 403 `token_revoked`): any
 * refusal of our credentials gets a whole new token chain and the same request
 * again. Writes are only ever retried with their idempotency key, so a retry
 * after a lost answer replays the first result instead of writing twice.
 */
export class TalentForge {
  private readonly config: Config;
  private session: string | null = null;
  private sessionUntil = 0;
  private accessToken: string | null = null;
  private accessUntil = 0;

  constructor(config: Config) {
    this.config = config;
  }

  /** One HTTP exchange, retried on 429 (as told) and, when safe, on 5xx and network errors. */
  private async exchange(method: string, path: string, init: { headers: Record<string, string>; body?: string }, retrySafe: boolean): Promise<Answer> {
    const url = `${this.config.baseUrl}${path}`;
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(url, { method, headers: init.headers, body: init.body });
      } catch (err) {
        // The request may or may not have reached TalentForge: only a retry-safe call goes again.
        if (!retrySafe || attempt >= MAX_TRIES) throw err;
        console.error(`${method} ${path}: ${(err as Error).message}; retrying`);
        await sleep(backoffMs(attempt));
        continue;
      }
      const text = await res.text();
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      if (res.status === 429 && attempt < MAX_TRIES + 4) {
        await sleep(retryAfterMs(res.headers.get("retry-after")));
        continue;
      }
      if (res.status >= 500 && retrySafe && attempt < MAX_TRIES) {
        console.error(`${method} ${path}: ${res.status}; retrying with the same request`);
        await sleep(backoffMs(attempt));
        continue;
      }
      return { status: res.status, headers: res.headers, body };
    }
  }

  private async mintAccessToken(): Promise<void> {
    const now = Date.now();
    const form = new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret });
    const tok = await this.exchange("POST", "/oauth/token", { headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" }, body: form.toString() }, true);
    if (tok.status !== 200) throw new ApiError("POST", "/oauth/token", tok.status, tok.body);
    const t = tok.body as { access_token: string; expires_in?: number };
    this.accessToken = t.access_token;
    this.accessUntil = now + Math.max(30, (t.expires_in ?? 600) - 30) * 1000;
  }

  /** Opens a session with the current access token; false when TalentForge refuses the token. */
  private async openSession(): Promise<boolean> {
    const now = Date.now();
    const ses = await this.exchange("POST", "/rest/login", { headers: { Authorization: `Bearer ${this.accessToken}`, Accept: "application/json" } }, true);
    if (ses.status === 401 || ses.status === 403) return false;
    if (ses.status < 200 || ses.status >= 300) throw new ApiError("POST", "/rest/login", ses.status, ses.body);
    const s = ses.body as { session_token: string; expires_in?: number };
    this.session = s.session_token;
    // Sessions end a fixed time after they open, busy or not: renew a little before.
    this.sessionUntil = now + Math.max(30, (s.expires_in ?? 900) - 60) * 1000;
    return true;
  }

  /** A session, from the access token we hold while it is good, else from a new one. */
  private async authenticate(): Promise<void> {
    if (!this.accessToken || Date.now() >= this.accessUntil) await this.mintAccessToken();
    if (await this.openSession()) return;
    // The access token was refused before its time (revoked): mint a new one.
    await this.mintAccessToken();
    if (!(await this.openSession())) throw new Error("TalentForge refused a session for a freshly minted access token");
  }

  /**
   * A data-plane call with the session header. On 401/403 the session and the
   * access token behind it are dropped and the call goes again with a new
   * chain (and, for a write, the same idempotency key); a refusal that
   * survives fresh credentials is a real permission problem and is thrown.
   */
  async call(method: string, path: string, opts: { body?: unknown; idempotencyKey?: string } = {}): Promise<{ body: unknown; replayed: boolean }> {
    const retrySafe = method === "GET" || Boolean(opts.idempotencyKey);
    for (let reauth = 0; ; reauth++) {
      if (!this.session || Date.now() >= this.sessionUntil) await this.authenticate();
      const headers: Record<string, string> = { "X-TF-Session": this.session!, Accept: "application/json" };
      if (opts.body !== undefined) headers["Content-Type"] = "application/json";
      if (opts.idempotencyKey) headers["Idempotency-Key"] = opts.idempotencyKey;
      const r = await this.exchange(method, path, { headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) }, retrySafe);
      if ((r.status === 401 || r.status === 403) && reauth < MAX_REAUTH) {
        const code = (r.body as { error?: { code?: string } } | null)?.error?.code ?? "";
        console.error(`${method} ${path}: ${r.status} ${code}; opening a new session and sending the same request again`);
        this.session = null;
        this.accessToken = null;
        continue;
      }
      if (r.status < 200 || r.status >= 300) throw new ApiError(method, path, r.status, r.body);
      return { body: r.body, replayed: r.headers.get("idempotent-replayed") === "true" };
    }
  }
}
