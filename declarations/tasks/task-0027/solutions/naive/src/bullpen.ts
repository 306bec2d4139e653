import type { Config } from "./config.ts";

export type Item = Record<string, unknown> & { id: string };

const PAGE_SIZE = 200;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Naive: a client of Bullpen's REST API behind OAuth 2.0 client credentials, as the
 * docs describe it (the cursor parameter as the Classic job passes it).
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

  /** Naive: the docs say throttled requests carry a standard `Retry-After` header (seconds). */
  private static waitOf(res: Response, _body: string, _attempt: number): number {
    const header = Number(res.headers.get("retry-after"));
    return Number.isFinite(header) && header > 0 ? header : 1;
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
      if ((res.status === 429 || res.status >= 500) && attempt < 8) {
        await sleep(BullpenClient.waitOf(res, body, attempt) * 1000);
        continue;
      }
      throw new Error(`${path}: ${res.status} ${body.slice(0, 300)}`);
    }
  }

  /** Every record of a list changed after `since` (all, when null). */
  async listAll(path: string, since: string | null): Promise<Item[]> {
    const items = new Map<string, Item>();
    let cursor: string | null = null;
    do {
      const query: Record<string, string> = { limit: String(PAGE_SIZE) };
      if (since) query.modified_after = since;
      if (cursor) query.cursor = cursor;
      const page = await this.get(path, query);
      for (const item of (page.items as Item[]) ?? []) items.set(String(item.id), item);
      cursor = (page.next_cursor as string | null) ?? null;
    } while (cursor);
    return [...items.values()];
  }
}
