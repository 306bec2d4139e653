import type { Config } from "./config.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A page of a PlaceMint list. */
export interface Page<T> {
  results: T[];
  count: number;
  next_offset: number | null;
}

/** A small PlaceMint client: a fresh token when the old one runs out, waits out 429s, sends a failed call again. */
export class PlaceMintClient {
  private readonly config: Config;
  private token: string | null = null;

  constructor(config: Config) {
    this.config = config;
  }

  private async mint(): Promise<string> {
    const res = await fetch(`${this.config.baseUrl}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret }),
    });
    if (!res.ok) throw new Error(`POST /oauth/token failed with ${res.status}`);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      this.token ??= await this.mint();
      const res = await fetch(`${this.config.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.ok) return ((res.headers.get("content-type") ?? "").includes("json") ? await res.json() : await res.text()) as T;
      if (attempt >= 5) throw new Error(`${method} ${path} failed with ${res.status}`);
      if (res.status === 401) this.token = null;
      else if (res.status === 429) await sleep(Number(res.headers.get("retry-after") ?? 1) * 1000);
      else if (res.status >= 500) await sleep(300);
      else throw new Error(`${method} ${path} failed with ${res.status}`);
    }
  }
}
