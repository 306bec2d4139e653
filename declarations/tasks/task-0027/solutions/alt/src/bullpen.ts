import type { Config } from "./config.ts";

export type Item = Record<string, unknown> & { id: string };

/** A cursor Bullpen no longer honours (a cursor lives for five requests). */
class DeadCursor extends Error {}

const PAGE_SIZE = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A client of Bullpen's REST API behind OAuth 2.0 client credentials. Cursors are
 * passed as `cursor` (the name the API honours) and followed at once; the wait of a
 * 429 is read from the error body, where Bullpen puts it.
 */
export class BullpenClient {
  private readonly config: Config;
  private token: string | null = null;
  /** Bullpen's clock on the first response of this run. */
  serverTime: string | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  private note(res: Response): void {
    const t = res.headers.get("x-bullpen-server-time");
    if (t && this.serverTime === null) this.serverTime = t;
  }

  /** Seconds a refused request asks us to wait: the header when there is one, else the body's `retry_after_seconds`. */
  private static waitOf(res: Response, body: string, attempt: number): number {
    const header = Number(res.headers.get("retry-after"));
    if (Number.isFinite(header) && header > 0) return header;
    try {
      const parsed = JSON.parse(body) as { error?: { retry_after_seconds?: unknown } };
      const s = Number(parsed.error?.retry_after_seconds);
      if (Number.isFinite(s) && s > 0) return s;
    } catch {}
    return Math.min(2 ** attempt, 8);
  }

  /** The current access token, minted when there is none. */
  async accessToken(): Promise<string> {
    this.token ??= await this.mint();
    return this.token;
  }

  private async mint(): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}/oauth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret }),
      });
      this.note(res);
      const body = await res.text();
      if (res.ok) return String((JSON.parse(body) as { access_token: string }).access_token);
      if ((res.status === 429 || res.status >= 500) && attempt < 6) {
        await sleep(BullpenClient.waitOf(res, body, attempt) * 1000);
        continue;
      }
      throw new Error(`/oauth/token: ${res.status} ${body.slice(0, 200)}`);
    }
  }

  private async get(path: string, query: Record<string, string>): Promise<Record<string, unknown>> {
    const url = `${this.config.baseUrl}${path}?${new URLSearchParams(query)}`;
    let reminted = false;
    for (let attempt = 0; ; attempt++) {
      this.token ??= await this.mint();
      const res = await fetch(url, { headers: { Authorization: `Bearer ${this.token}`, Accept: "application/json" } });
      this.note(res);
      const body = await res.text();
      if (res.ok) return JSON.parse(body) as Record<string, unknown>;
      if (res.status === 401 && !reminted) {
        this.token = null;
        reminted = true;
        continue;
      }
      if (res.status === 400 && query.cursor && /cursor/i.test(body)) throw new DeadCursor(body);
      if ((res.status === 429 || res.status >= 500) && attempt < 8) {
        await sleep(BullpenClient.waitOf(res, body, attempt) * 1000);
        continue;
      }
      throw new Error(`${path}: ${res.status} ${body.slice(0, 300)}`);
    }
  }

  /** Every record of a list changed after `since` (all, when null); a cursor that died restarts the list. */
  async listAll(path: string, since: string | null): Promise<Item[]> {
    for (let restarts = 0; ; restarts++) {
      const items = new Map<string, Item>();
      let cursor: string | null = null;
      try {
        do {
          const query: Record<string, string> = { limit: String(PAGE_SIZE) };
          if (since) query.modified_after = since;
          if (cursor) query.cursor = cursor;
          const page = await this.get(path, query);
          for (const item of (page.items as Item[]) ?? []) items.set(String(item.id), item);
          cursor = (page.next_cursor as string | null) ?? null;
        } while (cursor);
        return [...items.values()];
      } catch (err) {
        if (!(err instanceof DeadCursor) || restarts >= 3) throw err;
        console.error(`${path}: cursor expired; reading the list again from its first page`);
      }
    }
  }
}
