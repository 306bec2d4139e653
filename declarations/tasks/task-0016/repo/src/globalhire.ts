import type { Config } from "./config.ts";

/** One answer from GlobalHire: status, parsed body (null when empty) and headers. */
export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** A thin client for the GlobalHire Talent API v2. */
export class GlobalHire {
  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  async call(method: string, path: string, body?: unknown): Promise<Answer> {
    const res = await fetch(`${this.config.baseUrl}${path}`, {
      method,
      headers: { "X-GH-Api-Key": this.config.apiKey, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  }

  placement(id: string): Promise<Answer> {
    return this.call("GET", `/v2/placements/${encodeURIComponent(id)}`);
  }

  candidate(id: string): Promise<Answer> {
    return this.call("GET", `/v2/candidates/${encodeURIComponent(id)}`);
  }

  setState(id: string, state: string): Promise<Answer> {
    return this.call("PATCH", `/v2/placements/${encodeURIComponent(id)}`, { state });
  }

  book(placements: Record<string, unknown>[]): Promise<Answer> {
    return this.call("POST", "/v2/placements/batch", { placements });
  }
}
