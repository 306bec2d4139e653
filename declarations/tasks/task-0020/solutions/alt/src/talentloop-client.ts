import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type ApiRecord = Record<string, unknown> & { id: string; updated_at: string };

/** A TalentLoop API client: one client-credentials token per run, retries on 429 and 5xx in place. */
export class TalentLoopClient {
  private readonly config: Config;
  private token: { value: string; expiresAt: number } | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  private async accessToken(): Promise<string> {
    if (this.token && Date.now() < this.token.expiresAt - 60_000) return this.token.value;
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret }),
      });
      if (res.ok) {
        const body = (await res.json()) as { access_token: string; expires_in?: number };
        this.token = { value: body.access_token, expiresAt: Date.now() + 1000 * (body.expires_in ?? 3600) };
        return this.token.value;
      }
      await res.arrayBuffer();
      if ((res.status === 429 || res.status >= 500) && attempt < 5) {
        await sleep(retryDelay(res, attempt));
        continue;
      }
      throw new Error(`POST /token failed with ${res.status}`);
    }
  }

  /** GET a path; answers the status and parsed body. 410 and 404 are returned, other failures retried or thrown. */
  async get(path: string, params: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
    const query = new URLSearchParams(params);
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}${path}${query.size ? `?${query}` : ""}`, { headers: { authorization: `Bearer ${await this.accessToken()}` } });
      const body = await res.json().catch(() => null);
      if (res.ok || res.status === 404 || res.status === 410) return { status: res.status, body };
      if (res.status === 401 && attempt < 3) {
        this.token = null;
        continue;
      }
      if ((res.status === 429 || res.status >= 500) && attempt < 6) {
        await sleep(retryDelay(res, attempt));
        continue;
      }
      throw new Error(`GET ${path} failed with ${res.status}: ${JSON.stringify(body)}`);
    }
  }

  /** Every record of a cursor-paged list. A failed page is retried with the same cursor. */
  async listAll(path: string): Promise<ApiRecord[]> {
    const rows: ApiRecord[] = [];
    let cursor: string | null = null;
    do {
      const { status, body } = await this.get(path, { limit: "100", ...(cursor ? { cursor } : {}) });
      if (status !== 200) throw new Error(`GET ${path} answered ${status}`);
      const page = body as { data: ApiRecord[]; next_cursor: string | null };
      rows.push(...page.data);
      cursor = page.data.length ? page.next_cursor : null;
    } while (cursor);
    return rows;
  }
}

function retryDelay(res: Response, attempt: number): number {
  const after = Number(res.headers.get("retry-after"));
  return Number.isFinite(after) && after > 0 ? after * 1000 + 100 : 250 * 2 ** attempt;
}
