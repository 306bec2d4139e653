import type { Config } from "./config.ts";

export interface Candidate {
  id: number;
  name: string;
  surname: string;
  stage: string;
  rating: number | null;
  [field: string]: unknown;
}

/** A response of the HireWire API: status and parsed JSON body. */
export interface ApiResponse {
  status: number;
  body: unknown;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MAX_ATTEMPTS = 5;

/** Minimal HireWire v1 client (X-API-Key auth), with retries for rate limits and server errors. */
export class HireWireClient {
  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  private async call(method: string, url: string, body?: unknown): Promise<{ res: Response; body: unknown }> {
    const headers: Record<string, string> = { "X-API-Key": this.config.apiKey, accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      // Rate limits: the docs say Retry-After holds the wait in seconds.
      if (res.status === 429 && attempt < MAX_ATTEMPTS) {
        const seconds = Number(res.headers.get("retry-after"));
        await sleep((Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000);
        continue;
      }
      // Transient server errors: try again after a short pause.
      if (res.status >= 500 && attempt < MAX_ATTEMPTS) {
        await sleep(500 * attempt);
        continue;
      }
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = text;
      }
      if (!res.ok) throw new Error(`${method} ${url} failed with ${res.status}: ${text.slice(0, 200)}`);
      return { res, body: parsed };
    }
  }

  /** Every candidate: numbered pages of 50, following the Link header. */
  async listCandidates(): Promise<Candidate[]> {
    const all: Candidate[] = [];
    let url: string | null = `${this.config.baseUrl}/v1/candidates?page=1&per_page=50`;
    while (url) {
      const { res, body } = await this.call("GET", url);
      all.push(...(body as { data: Candidate[] }).data);
      url = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get("link") ?? "")?.[1] ?? null;
    }
    return all;
  }

  /** Moves a candidate to another stage and returns the updated record. */
  async moveStage(id: number, stage: string): Promise<Candidate> {
    const { body } = await this.call("POST", `${this.config.baseUrl}/v1/candidates/${id}/stage`, { stage });
    return body as Candidate;
  }
}
