import type { Config } from "./config.ts";

export interface Candidate {
  id: number;
  name: string;
  surname: string;
  stage: string;
  rating: number | null;
  [field: string]: unknown;
}

/** A final answer of the HireWire API (after rate-limit waits and transient retries). */
export interface ApiResponse {
  status: number;
  body: unknown;
  headers: Headers;
}

/** How a stage move ended, as HireWire's own record shows it. */
export interface MoveOutcome {
  landed: boolean;
  stage: string | null;
  detail: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MAX_TRANSIENT_ATTEMPTS = 5;
const MAX_RATE_LIMIT_WAITS = 20;

/**
 * How long a 429 asks us to wait, in ms. HireWire sends Retry-After as an
 * HTTP date (RFC 9110 allows that or delay-seconds); a date is read against
 * the response's own Date header so our clock's offset does not matter.
 */
export function retryAfterMs(headers: Headers): number {
  const raw = headers.get("retry-after")?.trim();
  const reset = Number(headers.get("x-ratelimit-reset"));
  const fallback = Number.isFinite(reset) && reset > 0 ? reset * 1000 : 1000;
  if (!raw) return fallback + 100;
  if (/^\d+$/.test(raw)) return Number(raw) * 1000 + 100;
  const until = Date.parse(raw);
  if (Number.isNaN(until)) return fallback + 100;
  const served = Date.parse(headers.get("date") ?? "");
  const delta = Number.isNaN(served) ? until - Date.now() : until - served;
  return Math.max(0, delta) + 100;
}

/** HireWire v1 client: X-API-Key, rate-limit aware, safe retries. */
export class HireWireClient {
  private readonly config: Config;
  /** Requests left in the current quota window, from X-RateLimit-Remaining. */
  private remaining: number | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  /**
   * One logical request. 429: wait as told and send it again. 5xx and network
   * errors: back off and send it again, unchanged (a write keeps its
   * Idempotency-Key, so a repeat can never apply twice). Anything else is
   * returned to the caller.
   */
  async request(method: string, pathOrUrl: string, opts: { body?: unknown; headers?: Record<string, string> } = {}): Promise<ApiResponse> {
    const url = pathOrUrl.startsWith("http") ? pathOrUrl : `${this.config.baseUrl}${pathOrUrl}`;
    const headers: Record<string, string> = { "X-API-Key": this.config.apiKey, accept: "application/json", ...opts.headers };
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    let transient = 0;
    let waits = 0;
    for (;;) {
      let res: Response;
      try {
        res = await fetch(url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
      } catch (err) {
        if (++transient >= MAX_TRANSIENT_ATTEMPTS) throw err;
        await sleep(250 * 2 ** transient);
        continue;
      }
      const left = Number(res.headers.get("x-ratelimit-remaining"));
      if (res.headers.has("x-ratelimit-remaining") && Number.isFinite(left)) this.remaining = left;
      const text = await res.text();
      if (res.status === 429 && ++waits <= MAX_RATE_LIMIT_WAITS) {
        await sleep(retryAfterMs(res.headers));
        this.remaining = null;
        continue;
      }
      if (res.status >= 500 && ++transient < MAX_TRANSIENT_ATTEMPTS) {
        await sleep(250 * 2 ** transient);
        continue;
      }
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      return { status: res.status, body, headers: res.headers };
    }
  }

  private async ok(method: string, pathOrUrl: string): Promise<ApiResponse> {
    const r = await this.request(method, pathOrUrl);
    if (r.status < 200 || r.status >= 300) throw new Error(`${method} ${pathOrUrl} failed with ${r.status}: ${JSON.stringify(r.body).slice(0, 200)}`);
    return r;
  }

  /** Every candidate: pages numbered from 1, 50 a page, following the Link header. */
  async listCandidates(): Promise<Candidate[]> {
    const all: Candidate[] = [];
    let url: string | null = "/v1/candidates?page=1&per_page=50";
    while (url) {
      const r = await this.ok("GET", url);
      all.push(...(r.body as { data: Candidate[] }).data);
      url = /<([^>]+)>;\s*rel="next"/.exec(r.headers.get("link") ?? "")?.[1] ?? null;
    }
    return all;
  }

  /** One candidate as HireWire holds it now (reads by id are never stale, unlike lists). */
  async getCandidate(id: number): Promise<Candidate> {
    return (await this.ok("GET", `/v1/candidates/${id}`)).body as Candidate;
  }

  /**
   * Moves a candidate under an idempotency key the caller keeps for this one
   * intended move. If HireWire cannot confirm the move even after retries,
   * the candidate's own record decides whether it landed.
   */
  async moveStage(id: number, stage: string, idempotencyKey: string): Promise<MoveOutcome> {
    // With the quota spent, the next request is refused: let a read take that
    // refusal and the wait, so the write goes out into an open window.
    if (this.remaining === 0) await this.getCandidate(id);
    let r: ApiResponse;
    try {
      r = await this.request("POST", `/v1/candidates/${id}/stage`, { body: { stage }, headers: { "Idempotency-Key": idempotencyKey } });
    } catch (err) {
      return this.confirm(id, stage, `POST failed: ${(err as Error).message}`);
    }
    if (r.status >= 200 && r.status < 300) {
      const got = (r.body as Candidate | null)?.stage ?? null;
      return { landed: got === stage, stage: got, detail: r.headers.get("idempotent-replayed") ? "confirmed by replay" : "moved" };
    }
    if (r.status >= 500) return this.confirm(id, stage, `answered ${r.status} after retries`);
    return { landed: false, stage: null, detail: `refused with ${r.status}: ${JSON.stringify(r.body).slice(0, 200)}` };
  }

  private async confirm(id: number, stage: string, why: string): Promise<MoveOutcome> {
    const now = await this.getCandidate(id);
    return { landed: now.stage === stage, stage: now.stage, detail: `${why}; record shows ${now.stage}` };
  }
}
