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
    const sid = /rly_sid=([^;]+)/.exec(res.headers.get("set-cookie") ?? "");
    if (!sid) throw new Error("login answered without a session cookie");
    this.cookie = `rly_sid=${sid[1]}`;
  }

  async get(path: string, params: Record<string, string> = {}): Promise<Response> {
    const query = new URLSearchParams(params);
    return fetch(`${this.config.baseUrl}${path}${query.size ? `?${query}` : ""}`, { headers: { cookie: this.cookie, accept: "application/json" } });
  }

  /** Every record of a list, page by page. */
  async all(path: string): Promise<RosterlyRecord[]> {
    const out: RosterlyRecord[] = [];
    for (let offset: number | null = 0; offset !== null; ) {
      const res = await this.get(path, { offset: String(offset) });
      if (!res.ok) throw new Error(`GET ${path} failed with ${res.status}`);
      const page = (await res.json()) as Page;
      out.push(...page.items);
      offset = page.next_offset;
    }
    return out;
  }

  /** The notes on one worker's file. */
  async notesOf(workerId: string): Promise<RosterlyRecord[]> {
    const res = await this.get(`/api/v3/workers/${workerId}/notes`);
    // A worker with nothing on file (or who has just left) answers an error: nothing to copy.
    if (!res.ok) return [];
    return ((await res.json()) as Page).items;
  }
}
