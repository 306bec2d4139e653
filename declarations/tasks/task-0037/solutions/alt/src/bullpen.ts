import type { BullpenConfig as Config } from "./config.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Longest wait Bullpen may ask for before we stop and leave the rest to the next run. */
const MAX_WAIT_S = 30;

/** Bullpen refused a write for good (a 4xx other than throttling), or kept failing. */
export class WriteFailed extends Error {}

/**
 * A client of Bullpen's REST API behind OAuth 2.0 client credentials. Throttling
 * waits come from the error body (`error.retry_after_seconds`), where Bullpen puts
 * them; a write whose answer is lost is sent again under the same Idempotency-Key.
 */
export class Bullpen {
  private readonly config: Config;
  private token: string | null = null;
  /** Bullpen's clock at its latest answer (`X-Bullpen-Server-Time`): the time its records are stamped with. */
  serverTime: string | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  /** Seconds a refused request asks us to wait: a Retry-After header, else the body's `error.retry_after_seconds`. */
  private static waitOf(res: Response, body: string, attempt: number): number {
    const header = Number(res.headers.get("retry-after"));
    if (Number.isFinite(header) && header > 0) return header;
    try {
      const s = Number((JSON.parse(body) as { error?: { retry_after_seconds?: unknown } }).error?.retry_after_seconds);
      if (Number.isFinite(s) && s > 0) return s;
    } catch {}
    return Math.min(2 ** attempt, 8);
  }

  private async mint(): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}/oauth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret }),
      });
      const body = await res.text();
      this.serverTime = res.headers.get("x-bullpen-server-time") ?? this.serverTime;
      if (res.ok) return String((JSON.parse(body) as { access_token: string }).access_token);
      if ((res.status === 429 || res.status >= 500) && attempt < 6) {
        await sleep(Bullpen.waitOf(res, body, attempt) * 1000);
        continue;
      }
      throw new Error(`/oauth/token: ${res.status} ${body.slice(0, 200)}`);
    }
  }

  /**
   * POSTs a create under `key`. A lost answer (5xx, dropped connection) is retried with the
   * same key, so Bullpen hands back what it stored the first time instead of storing it again.
   */
  async create(path: string, payload: Record<string, unknown>, key: string): Promise<Record<string, unknown>> {
    let reminted = false;
    for (let attempt = 0; ; attempt++) {
      this.token ??= await this.mint();
      let res: Response;
      let body: string;
      try {
        res = await fetch(`${this.config.baseUrl}${path}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${this.token}`, "Content-Type": "application/json", Accept: "application/json", "Idempotency-Key": key },
          body: JSON.stringify(payload),
        });
        body = await res.text();
        this.serverTime = res.headers.get("x-bullpen-server-time") ?? this.serverTime;
      } catch (err) {
        if (attempt >= 6) throw new WriteFailed(`POST ${path}: ${(err as Error).message}`);
        await sleep(500 * 2 ** attempt);
        continue;
      }
      if (res.ok) return JSON.parse(body) as Record<string, unknown>;
      if (res.status === 401 && !reminted) {
        this.token = null;
        reminted = true;
        continue;
      }
      if (res.status === 429 || res.status >= 500) {
        const wait = res.status === 429 ? Bullpen.waitOf(res, body, attempt) : Math.min(0.5 * 2 ** attempt, 8);
        if (wait > MAX_WAIT_S || attempt >= 6) throw new WriteFailed(`POST ${path}: Bullpen answered ${res.status}: ${body.slice(0, 200)}`);
        await sleep(wait * 1000);
        continue;
      }
      throw new WriteFailed(`POST ${path}: ${res.status} ${body.slice(0, 300)}`);
    }
  }
  /** Bullpen's clock as of its latest answer (a token is minted first if none was). */
  async clock(): Promise<string> {
    this.token ??= await this.mint();
    return this.serverTime ?? new Date().toUTCString();
  }

  /** GETs a path and query; throttling and server errors waited out as Bullpen asks, up to MAX_WAIT_S. */
  private async get(pathAndQuery: string): Promise<Record<string, unknown>> {
    let reminted = false;
    for (let attempt = 0; ; attempt++) {
      this.token ??= await this.mint();
      const res = await fetch(`${this.config.baseUrl}${pathAndQuery}`, { headers: { Authorization: `Bearer ${this.token}`, Accept: "application/json" } });
      const body = await res.text();
      this.serverTime = res.headers.get("x-bullpen-server-time") ?? this.serverTime;
      if (res.ok) return JSON.parse(body) as Record<string, unknown>;
      if (res.status === 401 && !reminted) {
        this.token = null;
        reminted = true;
        continue;
      }
      if ((res.status === 429 || res.status >= 500) && attempt < 6) {
        const wait = Bullpen.waitOf(res, body, attempt);
        if (wait <= MAX_WAIT_S) {
          await sleep(wait * 1000);
          continue;
        }
      }
      throw new Error(`GET ${pathAndQuery}: ${res.status} ${body.slice(0, 200)}`);
    }
  }

  /**
   * The candidate a create sent with `payload` made, if Bullpen stored it: one changed since
   * `since` with every field of the payload. For a create whose answer never came back.
   */
  async findCreated(payload: Record<string, unknown>, since: string): Promise<string | null> {
    for (let cursor: string | null = null; ; ) {
      const query = new URLSearchParams({ modified_after: since, limit: "100", ...(cursor ? { cursor } : {}) });
      const page = (await this.get(`/api/v2/candidates?${query}`)) as { items?: Record<string, unknown>[]; next_cursor?: string | null };
      const hit = (page.items ?? []).find((c) => Object.entries(payload).every(([k, v]) => c[k] === v));
      if (hit) return String(hit.id);
      cursor = page.next_cursor ?? null;
      if (!cursor || !page.items?.length) return null;
    }
  }
}
