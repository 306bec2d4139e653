import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What one call came to. `unknown` means TalentForge may or may not have done it: a 5xx, or no answer at all. */
export type Outcome = { kind: "done"; status: number; body: unknown } | { kind: "refused"; status: number; body: unknown } | { kind: "unknown"; why: string };

/** A candidate as TalentForge lists it (the fields this connector reads). */
export interface Candidate {
  id: string;
  given_name: string | null;
  family_name: string | null;
  email: string | null;
}

/** A note as TalentForge lists it. */
export interface Note {
  id: string;
  body: string | null;
  author: string | null;
}

const MAX_REAUTH = 2;
const MAX_RATE_WAITS = 10;

function retryAfterMs(header: string | null): number {
  const s = Number(header);
  if (header && Number.isFinite(s)) return Math.max(0, s) * 1000 + 50;
  const at = header ? Date.parse(header) : NaN;
  return Number.isNaN(at) ? 1000 : Math.max(0, at - Date.now()) + 250;
}

/**
 * TalentForge client: OAuth client credentials, then a session exchange. It
 * answers with what happened to one request: done, refused (a 4xx that is
 * TalentForge's answer about the request itself), or unknown. Credentials
 * refused (401, or the off-spec 403 of a revoked token) and 429s are dealt with
 * here: both mean TalentForge did not act on the request, so it goes again.
 * A 5xx or a dropped connection is never resent here; the caller finds out
 * what happened by reading.
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

  /** One exchange, waiting out 429s as told; a network error is `null`. */
  private async exchange(method: string, path: string, init: { headers: Record<string, string>; body?: string }): Promise<{ status: number; body: unknown } | null> {
    for (let waits = 0; ; waits++) {
      let res: Response;
      try {
        res = await fetch(`${this.config.baseUrl}${path}`, { method, headers: init.headers, body: init.body });
      } catch (err) {
        console.error(`${method} ${path}: ${(err as Error).message}`);
        return null;
      }
      const text = await res.text();
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      if (res.status === 429 && waits < MAX_RATE_WAITS) {
        await sleep(retryAfterMs(res.headers.get("retry-after")));
        continue;
      }
      return { status: res.status, body };
    }
  }

  /** Token and session calls change nothing in TalentForge, so they may simply go again. */
  private async authCall(path: string, init: { headers: Record<string, string>; body?: string }): Promise<{ status: number; body: unknown }> {
    for (let attempt = 1; ; attempt++) {
      const r = await this.exchange("POST", path, init);
      if (r && r.status < 500) return r;
      if (attempt >= 5) throw new Error(`POST ${path}: ${r ? r.status : "no answer"} after ${attempt} tries`);
      await sleep(250 * 2 ** (attempt - 1));
    }
  }

  private async mintAccessToken(): Promise<void> {
    const now = Date.now();
    const form = new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret });
    const tok = await this.authCall("/oauth/token", { headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" }, body: form.toString() });
    if (tok.status !== 200) throw new Error(`POST /oauth/token: ${tok.status} ${JSON.stringify(tok.body).slice(0, 200)}`);
    const t = tok.body as { access_token: string; expires_in?: number };
    this.accessToken = t.access_token;
    this.accessUntil = now + Math.max(30, (t.expires_in ?? 600) - 30) * 1000;
  }

  /** Opens a session with the current access token; false when TalentForge refuses the token. */
  private async openSession(): Promise<boolean> {
    const now = Date.now();
    const ses = await this.authCall("/rest/login", { headers: { Authorization: `Bearer ${this.accessToken}`, Accept: "application/json" } });
    if (ses.status === 401 || ses.status === 403) return false;
    if (ses.status < 200 || ses.status >= 300) throw new Error(`POST /rest/login: ${ses.status} ${JSON.stringify(ses.body).slice(0, 200)}`);
    const s = ses.body as { session_token: string; expires_in?: number };
    this.session = s.session_token;
    this.sessionUntil = now + Math.max(30, (s.expires_in ?? 900) - 60) * 1000;
    return true;
  }

  private async authenticate(): Promise<void> {
    if (!this.accessToken || Date.now() >= this.accessUntil) await this.mintAccessToken();
    if (await this.openSession()) return;
    await this.mintAccessToken();
    if (!(await this.openSession())) throw new Error("TalentForge refused a session for a freshly minted access token");
  }

  /** One data-plane call with the session header; a refusal of our credentials gets a new token chain and the same request. */
  async call(method: string, path: string, opts: { body?: unknown; idempotencyKey?: string } = {}): Promise<Outcome> {
    for (let reauth = 0; ; reauth++) {
      if (!this.session || Date.now() >= this.sessionUntil) await this.authenticate();
      const headers: Record<string, string> = { "X-TF-Session": this.session!, Accept: "application/json" };
      if (opts.body !== undefined) headers["Content-Type"] = "application/json";
      if (opts.idempotencyKey) headers["Idempotency-Key"] = opts.idempotencyKey;
      const r = await this.exchange(method, path, { headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
      if (!r) return { kind: "unknown", why: "no answer" };
      if ((r.status === 401 || r.status === 403) && reauth < MAX_REAUTH) {
        console.error(`${method} ${path}: ${r.status}; opening a new session`);
        this.session = null;
        this.accessToken = null;
        continue;
      }
      if (r.status >= 500) return { kind: "unknown", why: `answered ${r.status}` };
      if (r.status >= 200 && r.status < 300) return { kind: "done", status: r.status, body: r.body };
      return { kind: "refused", status: r.status, body: r.body };
    }
  }

  /** A read, retried with backoff on 5xx and dropped connections (reads change nothing). */
  async read(path: string): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      const r = await this.call("GET", path);
      if (r.kind === "done") return r.body;
      if (r.kind === "refused" || attempt >= 6) throw new Error(`GET ${path}: ${r.kind === "refused" ? `${r.status} ${JSON.stringify(r.body).slice(0, 200)}` : r.why}`);
      await sleep(250 * 2 ** (attempt - 1));
    }
  }

  /** Every item of a cursor-paged list. */
  async list<T>(path: string, limit: number): Promise<T[]> {
    const out: T[] = [];
    let cursor: string | null = null;
    do {
      const q = new URLSearchParams({ limit: String(limit) });
      if (cursor) q.set("cursor", cursor);
      const page = (await this.read(`${path}?${q}`)) as { data?: T[]; next_cursor?: string | null };
      out.push(...(page.data ?? []));
      cursor = page.next_cursor ?? null;
    } while (cursor);
    return out;
  }

  candidates(): Promise<Candidate[]> {
    return this.list<Candidate>("/rest/candidates", 100);
  }

  notes(candidateId: string): Promise<Note[]> {
    return this.list<Note>(`/rest/candidates/${encodeURIComponent(candidateId)}/notes`, 5);
  }
}
