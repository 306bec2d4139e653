import type { Config } from "./config.ts";

const PAGE = 200;

/** A signed-in Rosterly session (cookie) for reading venues and shifts. */
export class Rosterly {
  private cookie = "";
  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  private async login(): Promise<void> {
    const res = await fetch(`${this.config.baseUrl}/api/v3/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: this.config.username, password: this.config.password }),
    });
    if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
    await res.json();
    const sid = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .find((c) => c.startsWith("rly_sid="));
    if (!sid) throw new Error("sign-in answered without a rly_sid cookie");
    this.cookie = sid;
  }

  private async get(path: string): Promise<unknown> {
    if (!this.cookie) await this.login();
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}${path}`, { headers: { cookie: this.cookie } });
      if (res.ok) return res.json();
      const text = await res.text();
      if (res.status === 401 && attempt < 2) {
        await this.login();
        continue;
      }
      if ((res.status === 429 || res.status >= 500) && attempt < 5) {
        const wait = Number(res.headers.get("retry-after"));
        await new Promise((r) => setTimeout(r, (Number.isFinite(wait) && wait > 0 ? wait : 2 ** attempt / 4) * 1000));
        continue;
      }
      throw new Error(`GET ${path}: ${res.status} ${text.slice(0, 300)}`);
    }
  }

  /**
   * Every record of a list, once each. The rota is edited while the job reads it, so an offset
   * crawl can see a record twice and step over another; a crawl that ends with fewer distinct
   * records than the list's `total` is read again, keeping every record it met.
   */
  async list<T extends { id: string }>(path: string): Promise<T[]> {
    const byId = new Map<string, T>();
    let total = 0;
    for (let pass = 0; pass < 4; pass++) {
      for (let offset = 0; ; ) {
        const page = (await this.get(`${path}?limit=${PAGE}&offset=${offset}`)) as { items: T[]; total: number; next_offset: number | null };
        for (const item of page.items) byId.set(item.id, item);
        total = page.total;
        if (page.next_offset === null || page.next_offset === undefined || !page.items.length) break;
        offset = page.next_offset;
      }
      if (byId.size >= total) return [...byId.values()];
    }
    throw new Error(`GET ${path}: the list kept moving; ${byId.size} distinct records read, the list says ${total}`);
  }
}
