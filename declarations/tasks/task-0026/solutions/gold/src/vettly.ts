import type { Config } from "./config.ts";

export type Item = Record<string, unknown> & { id: string };

/** Vettly is down for maintenance and asked us to come back later than we are willing to wait. */
export class MaintenanceError extends Error {}

/** A page token Vettly no longer honours (it expired, or belongs to an earlier run). */
class DeadCursor extends Error {}

const PAGE_SIZE = 100;
/** Longest wait a Retry-After may ask for before the run gives up and leaves it to the next run. */
const LONGEST_WAIT_S = 60;
/** Longest one exchange may take, its body included: an answer that stalls is given up and asked again. */
const EXCHANGE_TIMEOUT_MS = 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A small Vettly Screening API client. Page tokens are followed the moment a page
 * arrives and never kept: Vettly expires them after a handful of requests.
 */
export class VettlyClient {
  private token: string | null = null;
  /** Vettly's own clock, from the first response of this run. */
  serverTime: string | null = null;

  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  /**
   * One exchange, its body included: a connection that fails, drops or stalls before
   * the body is complete is tried again a few times (a read changes nothing at Vettly).
   */
  private async exchange(url: string, init: RequestInit, what: string): Promise<{ res: Response; text: string }> {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(url, { ...init, signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS) });
        return { res, text: await res.text() };
      } catch (err) {
        if (attempt >= 3) throw err;
        console.error(`${what}: the connection failed (${(err as Error).message}); trying again`);
        await sleep(250 * 2 ** attempt);
      }
    }
  }

  private async mint(): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const { res, text } = await this.exchange(
        `${this.config.baseUrl}/oauth/token`,
        {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret }),
        },
        "/oauth/token",
      );
      this.noteTime(res);
      if (res.ok) return String((JSON.parse(text) as { access_token: string }).access_token);
      await this.backOff(res, text, attempt, "/oauth/token");
    }
  }

  private noteTime(res: Response): void {
    const t = res.headers.get("x-vettly-server-time");
    if (t && this.serverTime === null) this.serverTime = t;
  }

  /** Waits as a refused request asks, or gives up when that is not worth waiting for. */
  private async backOff(res: Response, body: string, attempt: number, what: string): Promise<void> {
    const retryAfter = Number(res.headers.get("retry-after"));
    if (res.status === 429 || res.status >= 500) {
      const waitS = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : Math.min(2 ** attempt, 8);
      if (waitS > LONGEST_WAIT_S) throw new MaintenanceError(`${what}: ${res.status}, Vettly asks us to come back in ${waitS} s`);
      if (attempt >= 8) throw new Error(`${what}: still ${res.status} after ${attempt + 1} attempts: ${body.slice(0, 200)}`);
      await sleep(waitS * 1000);
      return;
    }
    throw new Error(`${what}: ${res.status} ${body.slice(0, 300)}`);
  }

  private async get(path: string, query: Record<string, string>): Promise<Record<string, unknown>> {
    const url = `${this.config.baseUrl}${path}?${new URLSearchParams(query)}`;
    let reminted = false;
    for (let attempt = 0; ; attempt++) {
      this.token ??= await this.mint();
      const { res, text } = await this.exchange(url, { headers: { Authorization: `Bearer ${this.token}`, Accept: "application/json" } }, path);
      this.noteTime(res);
      if (res.ok) return JSON.parse(text) as Record<string, unknown>;
      if (res.status === 401 && !reminted) {
        this.token = null;
        reminted = true;
        continue;
      }
      if (res.status === 400 && query.page_token) {
        if (/cursor|page_token/i.test(text)) throw new DeadCursor(text);
        throw new Error(`${path}: 400 ${text.slice(0, 300)}`);
      }
      await this.backOff(res, text, attempt, path);
    }
  }

  /**
   * Every record of a list (changed since `since`, when given). A page token that
   * died under us restarts the list from its first page: records are keyed by id, so
   * reading a page twice costs requests but never a duplicate. A page is a position in
   * a list that can move while we read it: a crawl that meets a record again on a later
   * page has seen the list shift, and has missed as many records elsewhere, so the list
   * is read again until a crawl gets through it without a repeat.
   */
  async listAll(path: string, since: string | null): Promise<Item[]> {
    for (let reads = 1; ; reads++) {
      const items = new Map<string, Item>();
      let repeats = 0;
      let token: string | null = null;
      try {
        do {
          const query: Record<string, string> = { page_size: String(PAGE_SIZE) };
          if (since) query.modified_since = since;
          if (token) query.page_token = token;
          const page = await this.get(path, query);
          for (const item of (page.results as Item[]) ?? []) {
            if (items.has(String(item.id))) repeats += 1;
            items.set(String(item.id), item);
          }
          token = (page.next_page_token as string | null) ?? null;
        } while (token);
      } catch (err) {
        if (!(err instanceof DeadCursor) || reads > 3) throw err;
        console.error(`${path}: page token refused (${err.message.slice(0, 80)}); reading the list again from its first page`);
        continue;
      }
      if (!repeats) return [...items.values()];
      if (reads > 3) throw new Error(`${path}: the list kept moving while it was read`);
      console.error(`${path}: ${repeats} records came twice, so the list moved while it was read; reading it again`);
    }
  }
}
