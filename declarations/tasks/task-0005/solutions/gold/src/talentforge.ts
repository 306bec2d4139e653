import type { Config } from "./config.ts";
import { HttpError, send } from "./http.ts";

/** A TalentForge candidate as the API returns it. */
export interface TfCandidate {
  id: string;
  given_name: string | null;
  family_name: string | null;
  email: string | null;
  is_deleted: boolean;
  [field: string]: unknown;
}

export interface TfNote {
  id: string;
  candidate_id: string;
  body: string;
  author: string;
  is_deleted: boolean;
}

/** TalentForge client: OAuth client credentials, then a session exchange; sessions end after a fixed lifetime. */
export class TalentForge {
  private readonly config: Config;
  private session: string | null = null;
  private sessionUntil = 0;
  /** The login under way, shared by concurrent callers so one session serves them all. */
  private pending: Promise<void> | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  private async login(): Promise<void> {
    const base = this.config.talentforgeUrl;
    const form = new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.talentforgeClientId, client_secret: this.config.talentforgeClientSecret });
    const tok = await send(`${base}/oauth/token`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: form.toString() }, { retryWrites: true });
    if (!tok.res.ok) throw new HttpError("POST", `${base}/oauth/token`, tok.res.status, tok.body);
    const access = (tok.body as { access_token: string }).access_token;
    const ses = await send(`${base}/rest/login`, { method: "POST", headers: { Authorization: `Bearer ${access}` } }, { retryWrites: true });
    if (!ses.res.ok) throw new HttpError("POST", `${base}/rest/login`, ses.res.status, ses.body);
    const s = ses.body as { session_token: string; expires_in?: number };
    this.session = s.session_token;
    // Renew a little before the absolute end of the session.
    this.sessionUntil = Date.now() + Math.max(60, (s.expires_in ?? 900) - 60) * 1000;
  }

  /** A call with the session header; one fresh session on 401. */
  private async call(method: string, pathAndQuery: string, extra: { body?: unknown; idempotencyKey?: string } = {}): Promise<unknown> {
    const url = `${this.config.talentforgeUrl}${pathAndQuery}`;
    for (let attempt = 1; ; attempt++) {
      if (!this.session || Date.now() >= this.sessionUntil) {
        this.pending ??= this.login().finally(() => (this.pending = null));
        await this.pending;
      }
      const headers: Record<string, string> = { "X-TF-Session": this.session!, Accept: "application/json" };
      if (extra.body !== undefined) headers["Content-Type"] = "application/json";
      if (extra.idempotencyKey) headers["Idempotency-Key"] = extra.idempotencyKey;
      const r = await send(url, { method, headers, body: extra.body === undefined ? undefined : JSON.stringify(extra.body) }, { retryWrites: Boolean(extra.idempotencyKey) });
      if (r.res.status === 401 && attempt < 3) {
        if (this.session === headers["X-TF-Session"]) this.session = null;
        continue;
      }
      if (!r.res.ok) throw new HttpError(method, url, r.res.status, r.body);
      return r.body;
    }
  }

  private async listAll<T>(path: string, limit: number): Promise<T[]> {
    const rows: T[] = [];
    let cursor: string | null = null;
    do {
      const q = new URLSearchParams({ limit: String(limit) });
      if (cursor) q.set("cursor", cursor);
      const page = (await this.call("GET", `${path}?${q}`)) as { data: T[]; next_cursor: string | null };
      rows.push(...page.data);
      cursor = page.next_cursor ?? null;
    } while (cursor);
    return rows;
  }

  /** Every candidate, deleted ones included (they carry is_deleted: true). */
  candidates(): Promise<TfCandidate[]> {
    return this.listAll<TfCandidate>("/rest/candidates", 100);
  }

  notes(candidateId: string): Promise<TfNote[]> {
    return this.listAll<TfNote>(`/rest/candidates/${encodeURIComponent(candidateId)}/notes`, 5);
  }

  createCandidate(input: Record<string, string>, idempotencyKey: string): Promise<TfCandidate> {
    return this.call("POST", "/rest/candidates", { body: input, idempotencyKey }) as Promise<TfCandidate>;
  }

  addNote(candidateId: string, input: { body: string; author: string }, idempotencyKey: string): Promise<TfNote> {
    return this.call("POST", `/rest/candidates/${encodeURIComponent(candidateId)}/notes`, { body: input, idempotencyKey }) as Promise<TfNote>;
  }
}
