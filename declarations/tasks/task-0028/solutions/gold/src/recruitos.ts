import type { Config } from "./config.ts";

/** An answer from RecruitOS: status, parsed body (flat `errorCode` / `errorMessage` on errors) and headers. */
export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const RETRYABLE = new Set([429, 500, 502, 503, 504]);
const ATTEMPTS = 5;

/**
 * RecruitOS's Open API v3 with one app token, reused while it works. A token can be
 * revoked before its time (401): mint a new one once and carry on.
 */
export class RecruitOS {
  private token: string | null = null;
  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  private async mint(): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}/oauth2/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret }),
      });
      const body = (await res.json().catch(() => null)) as { access_token?: string; errorMessage?: string } | null;
      if (res.ok && body?.access_token) return body.access_token;
      if (!RETRYABLE.has(res.status) || attempt >= ATTEMPTS) throw new Error(`RecruitOS token: ${res.status} ${body?.errorMessage ?? ""}`);
      await sleep(waitMs(res, attempt));
    }
  }

  /** A request; `headers` adds to the token (If-Match, Cache-Control). */
  async call(method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
    let reminted = false;
    for (let attempt = 1; ; attempt++) {
      this.token ??= await this.mint();
      const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, ...opts.headers };
      if (opts.body !== undefined) headers["content-type"] = "application/json";
      const res = await fetch(`${this.config.baseUrl}${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
      const answer: Answer = { status: res.status, body: await res.json().catch(() => null), headers: res.headers };
      if (res.status === 401 && !reminted) {
        reminted = true;
        this.token = null;
        continue;
      }
      if (!RETRYABLE.has(res.status) || attempt >= ATTEMPTS) return answer;
      // A write answered 500, 502 or 504 may have been applied: the caller reads it back rather than sending it again.
      if (method !== "GET" && res.status !== 429 && res.status !== 503) return answer;
      await sleep(waitMs(res, attempt));
    }
  }

  /** Every item of a list, page by page (offset paging, at most 100 a page). */
  async listAll(path: string): Promise<any[]> {
    const items: any[] = [];
    for (let offset = 0; ; ) {
      const page = await this.call("GET", `${path}?limit=100&offset=${offset}`);
      if (page.status !== 200) throw new Error(`${path}: ${page.status} ${page.body?.errorMessage ?? ""}`);
      items.push(...page.body.items);
      offset += page.body.items.length;
      if (!page.body.items.length || offset >= page.body.totalCount) return items;
    }
  }
}

/** Retry-After when RecruitOS gives one (capped), else a short growing pause. */
function waitMs(res: Response, attempt: number): number {
  const after = Number(res.headers.get("retry-after"));
  return Number.isFinite(after) && after > 0 ? Math.min(after, 15) * 1000 : 250 * attempt;
}
