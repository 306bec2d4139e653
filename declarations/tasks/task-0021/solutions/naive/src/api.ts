// A TalentLoop client written from TalentLoop's documentation.
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Reply {
  status: number;
  body: any;
}

export type ApiRecord = Record<string, unknown> & { id: string };

export class TalentLoopApi {
  private token: string | null = null;
  private readonly baseUrl: string;
  private readonly clientId: string;
  private readonly clientSecret: string;

  constructor(baseUrl: string, clientId: string, clientSecret: string) {
    this.baseUrl = baseUrl.replace(/\/$/, "");
    this.clientId = clientId;
    this.clientSecret = clientSecret;
  }

  /** Access tokens last an hour (`expires_in`); one is enough for a run. */
  private async accessToken(): Promise<string> {
    if (this.token) return this.token;
    const res = await fetch(`${this.baseUrl}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: this.clientId, client_secret: this.clientSecret }),
    });
    if (!res.ok) throw new Error(`POST /token failed with ${res.status}`);
    this.token = ((await res.json()) as { access_token: string }).access_token;
    return this.token;
  }

  /**
   * One call. The errors page says 500, 502 and 504 may or may not have taken effect and are to
   * be retried safely, 429 waits `Retry-After` seconds, and 401 means the token is no longer good.
   */
  async call(method: string, path: string, body?: FormData | Record<string, unknown>): Promise<Reply> {
    let reauthed = false;
    for (let attempt = 1; ; attempt++) {
      const headers: Record<string, string> = { authorization: `Bearer ${await this.accessToken()}` };
      let payload: FormData | string | undefined;
      if (body instanceof FormData) payload = body;
      else if (body) {
        payload = JSON.stringify(body);
        headers["content-type"] = "application/json";
      }
      const res = await fetch(`${this.baseUrl}${path}`, { method, headers, body: payload });
      const text = await res.text();
      const parsed = text ? JSON.parse(text) : null;
      if (res.status === 401 && !reauthed) {
        reauthed = true;
        this.token = null;
        continue;
      }
      if (res.status === 429 && attempt < 5) {
        await sleep(Number(res.headers.get("retry-after") ?? 1) * 1000 + 100);
        continue;
      }
      if ([500, 502, 504].includes(res.status) && attempt < 4) {
        await sleep(200 * attempt);
        continue;
      }
      return { status: res.status, body: parsed };
    }
  }

  /** Every record of a list: pages of up to 500, following `next_cursor` until it is null. */
  async listAll(path: string): Promise<ApiRecord[]> {
    const rows: ApiRecord[] = [];
    let cursor: string | null = null;
    do {
      const q = new URLSearchParams({ limit: "500", ...(cursor ? { cursor } : {}) });
      const r = await this.call("GET", `${path}?${q}`);
      if (r.status !== 200) throw new Error(`GET ${path} answered ${r.status}`);
      rows.push(...r.body.data);
      cursor = r.body.next_cursor;
    } while (cursor);
    return rows;
  }
}
