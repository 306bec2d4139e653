import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An answer: its status (0 when none arrived) and parsed JSON body (null when there was none). */
export interface Reply {
  status: number;
  body: any;
}

export type ApiRecord = Record<string, unknown> & { id: string };

/** TalentLoop's message in an error body, or the status when there is none. */
export function messageOf(r: Reply): string {
  const m = r.body?.error?.message;
  return typeof m === "string" && m ? m : `TalentLoop answered ${r.status}`;
}

/**
 * A TalentLoop client: one client-credentials token, reused until TalentLoop
 * stops taking it (then minted again, once per request). 429s are waited out as
 * `Retry-After` says. Reads are retried on server errors; writes never are,
 * because TalentLoop has no idempotency key: whether a failed write landed is
 * the caller's question to answer by reading back.
 */
export class TalentLoop {
  private readonly config: Config;
  private token: string | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  private async mint(): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret }),
      }).catch(() => null);
      if (res?.ok) {
        this.token = ((await res.json()) as { access_token: string }).access_token;
        return this.token;
      }
      await res?.arrayBuffer();
      if (attempt >= 5 || (res && res.status < 500 && res.status !== 429)) throw new Error(`POST /token failed with ${res?.status ?? "no answer"}`);
      await sleep(res ? retryDelay(res, attempt) : 300 * attempt);
    }
  }

  /** One request, authenticated; status 0 when no answer arrived. A request TalentLoop refused for its token or its rate was not processed, so it is safe to send again. */
  async send(method: string, path: string, body?: FormData | Record<string, unknown>): Promise<Reply> {
    let reminted = false;
    for (let waits = 0; ; ) {
      const token = this.token ?? (await this.mint());
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "application/json" };
      let payload: FormData | string | undefined;
      if (body instanceof FormData) payload = body;
      else if (body) {
        payload = JSON.stringify(body);
        headers["content-type"] = "application/json";
      }
      const res = await fetch(`${this.config.baseUrl}${path}`, { method, headers, body: payload }).catch(() => null);
      if (!res) return { status: 0, body: null };
      const text = await res.text().catch(() => "");
      let parsed: any = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      if (res.status === 401 && !reminted) {
        reminted = true;
        this.token = null;
        continue;
      }
      if (res.status === 429 && waits < 5) {
        waits += 1;
        await sleep(retryDelay(res, waits));
        continue;
      }
      return { status: res.status, body: parsed };
    }
  }

  /** A read, retried on server errors and lost answers. */
  async get(path: string, query: Record<string, string> = {}): Promise<Reply> {
    const q = new URLSearchParams(query);
    const url = q.size ? `${path}?${q}` : path;
    for (let attempt = 1; ; attempt++) {
      const r = await this.send("GET", url);
      if ((r.status === 0 || r.status >= 500) && attempt < 5) {
        await sleep(200 * attempt);
        continue;
      }
      return r;
    }
  }

  /** Every record of a cursor-paged list; a page that fails is asked for again with the same cursor. */
  async listAll(path: string): Promise<ApiRecord[]> {
    const rows: ApiRecord[] = [];
    let cursor: string | null = null;
    do {
      const r = await this.get(path, { limit: "100", ...(cursor ? { cursor } : {}) });
      if (r.status !== 200) throw new Error(`GET ${path} answered ${r.status}: ${messageOf(r)}`);
      const page = r.body as { data: ApiRecord[]; next_cursor: string | null };
      rows.push(...page.data);
      cursor = page.data.length ? page.next_cursor : null;
    } while (cursor);
    return rows;
  }
}

function retryDelay(res: Response, attempt: number): number {
  const after = Number(res.headers.get("retry-after"));
  return Number.isFinite(after) && after >= 0 ? after * 1000 + 100 : 500 * attempt;
}
