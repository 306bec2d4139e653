import type { Config } from "./config.ts";

/** An answer from Onboardly: its status and parsed body (flat `error_code` / `message` on errors). */
export interface Answer {
  status: number;
  body: any;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Statuses worth another try: rate limits and server-side failures. */
const RETRYABLE = new Set([429, 500, 502, 503, 504]);
const ATTEMPTS = 5;

/**
 * The Onboardly console session: one sign-in reused while it lasts. A session can
 * end early (401), and its CSRF token ends with it: sign in again and take both anew.
 * Writes carry the caller's idempotency key, the same on every retry of a call.
 */
export class Onboardly {
  private cookie: string | null = null;
  private csrf = "";

  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  private async login(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}/api/v1/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: this.config.username, password: this.config.password }),
      });
      const body = (await res.json().catch(() => null)) as { csrf_token?: string; message?: string } | null;
      if (res.ok && body?.csrf_token) {
        this.cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
        this.csrf = body.csrf_token;
        return;
      }
      if (!RETRYABLE.has(res.status) || attempt >= ATTEMPTS) throw new Error(`Onboardly sign-in failed: ${res.status} ${body?.message ?? ""}`);
      await sleep(waitMs(res, attempt));
    }
  }

  get(path: string): Promise<Answer> {
    return this.call("GET", path);
  }

  post(path: string, body: unknown, idempotencyKey: string): Promise<Answer> {
    return this.call("POST", path, body, idempotencyKey);
  }

  private async call(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<Answer> {
    let relogged = false;
    for (let attempt = 1; ; attempt++) {
      if (!this.cookie) await this.login();
      const headers: Record<string, string> = { cookie: this.cookie! };
      if (method !== "GET") Object.assign(headers, { "x-csrf-token": this.csrf, "content-type": "application/json" });
      if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
      let res: Response;
      try {
        res = await fetch(`${this.config.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      } catch (err) {
        if (attempt >= ATTEMPTS) throw err;
        await sleep(200 * attempt);
        continue;
      }
      const answer: Answer = { status: res.status, body: await res.json().catch(() => null) };
      if (res.status === 401 && !relogged) {
        // The session ended before its time: sign in again (a new cookie and a new CSRF token).
        relogged = true;
        this.cookie = null;
        continue;
      }
      if (!RETRYABLE.has(res.status) || attempt >= ATTEMPTS) return answer;
      await sleep(waitMs(res, attempt));
    }
  }
}

/** How long to wait before the next try: Retry-After when given, else a short growing pause. */
function waitMs(res: Response, attempt: number): number {
  const after = Number(res.headers.get("retry-after"));
  return Number.isFinite(after) && after > 0 ? Math.min(after, 10) * 1000 : 250 * attempt;
}
