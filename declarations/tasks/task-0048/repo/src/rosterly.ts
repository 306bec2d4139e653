import type { Config } from "./config.ts";

/** A record as Rosterly serves it. */
export interface RosterlyRecord {
  id: string;
  [field: string]: unknown;
}

interface Page {
  items: RosterlyRecord[];
  total: number;
  next_offset: number | null;
}

/** Minimal Rosterly API client: one session cookie for the run. */
export class RosterlyClient {
  private readonly config: Config;
  private cookie = "";

  constructor(config: Config) {
    this.config = config;
  }

  async login(): Promise<void> {
    const res = await fetch(`${this.config.baseUrl}/api/v3/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: this.config.username, password: this.config.password }),
    });
    if (!res.ok) throw new Error(`login failed with ${res.status}`);
    await res.body?.cancel();
    const sid = /rly_sid=([^;]+)/.exec(res.headers.get("set-cookie") ?? "");
    if (!sid) throw new Error("login answered without a session cookie");
    this.cookie = `rly_sid=${sid[1]}`;
  }

  /** Every record of a list, page by page. */
  async all(path: string): Promise<RosterlyRecord[]> {
    const out: RosterlyRecord[] = [];
    for (let offset: number | null = 0; offset !== null; ) {
      const res = await fetch(`${this.config.baseUrl}${path}?offset=${offset}&limit=200`, { headers: { cookie: this.cookie, accept: "application/json" } });
      if (!res.ok) throw new Error(`GET ${path} failed with ${res.status}`);
      const page = (await res.json()) as Page;
      out.push(...page.items);
      offset = page.next_offset;
    }
    return out;
  }
}
