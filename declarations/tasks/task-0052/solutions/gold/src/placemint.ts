import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A page of a PlaceMint list. */
export interface Page<T> {
  results: T[];
  count: number;
  next_offset: number | null;
}

/** A request PlaceMint refused (or that could not be completed): its status (0 for a dropped connection) and error code. */
export class PlaceMintError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(message: string, status: number, code: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * A PlaceMint client for a bad Monday: one token reused until PlaceMint refuses it, a 429 waited
 * out for as long as it asks, server errors, dropped connections and answers that break off
 * part-way retried a few times with a growing pause. A write carries an Idempotency-Key that stays the same on every retry.
 */
export class PlaceMintClient {
  private readonly config: Config;
  private token: string | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  private async mint(): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret }),
      }).catch(() => null);
      if (res?.ok) return ((await res.json()) as { access_token: string }).access_token;
      if (res && !(res.status === 429 || res.status >= 500)) throw new Error(`POST /oauth/token failed with ${res.status}`);
      if (attempt >= 5) throw new Error(`POST /oauth/token failed with ${res?.status ?? "a dropped connection"}`);
      await sleep(res ? waitMs(res, attempt) : 200 * attempt);
    }
  }

  async request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    let authFailures = 0;
    let failures = 0;
    for (;;) {
      this.token ??= await this.mint();
      const res = await fetch(`${this.config.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).catch(() => null);
      // The body is read inside the retry: an answer whose connection drops part-way (the status and
      // headers came, the body broke off) failed like a dropped connection, and is asked for again.
      const text = res ? await res.text().catch(() => null) : null;
      if (res && text === null) {
        if (failures >= 5) throw new PlaceMintError(`${method} ${path}: the answer broke off ${failures + 1} times`, 0, "");
        failures += 1;
        await sleep(200 * failures);
        continue;
      }
      if (res?.ok) return ((res.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text ?? "") : text) as T;
      if (res?.status === 401 && authFailures < 2) {
        authFailures += 1;
        this.token = null;
        continue;
      }
      if (res?.status === 429) {
        await sleep(waitMs(res, 1));
        continue;
      }
      if ((!res || res.status >= 500) && failures < 5) {
        failures += 1;
        await sleep(200 * failures);
        continue;
      }
      let code = "";
      try {
        code = String((JSON.parse(text ?? "") as { code?: unknown }).code ?? "");
      } catch {
        // not an error body
      }
      throw new PlaceMintError(`${method} ${path} failed with ${res?.status ?? "a dropped connection"} ${text ?? ""}`.trim(), res?.status ?? 0, code);
    }
  }

  /**
   * Every record of a list. Offset pages shift when records move while we read, so a crawl can
   * see a record twice and miss another: a read is complete only when it holds as many distinct
   * records as PlaceMint counts at its end, else it is read again.
   */
  async listAll<T extends { id: string }>(path: string, query = ""): Promise<T[]> {
    for (let pass = 1; pass <= 5; pass++) {
      const seen = new Map<string, T>();
      let count = 0;
      let offset: number | null = 0;
      while (offset !== null) {
        const page: Page<T> = await this.request<Page<T>>("GET", `${path}?limit=100&offset=${offset}${query}`);
        for (const r of page.results) seen.set(r.id, r);
        count = page.count;
        offset = page.results.length ? page.next_offset : null;
      }
      if (seen.size >= count) return [...seen.values()];
      console.error(`${path}: read ${seen.size} distinct records of ${count}; the list moved under us, reading it again`);
    }
    throw new Error(`${path}: could not read a complete list`);
  }
}

function waitMs(res: Response, attempt: number): number {
  const s = Number(res.headers.get("retry-after"));
  return Number.isFinite(s) && s > 0 ? s * 1000 + 50 : 300 * attempt;
}
