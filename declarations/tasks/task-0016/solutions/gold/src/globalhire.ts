import type { Config } from "./config.ts";

/** One answer from GlobalHire: status, parsed body (null when empty) and headers. */
export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A client for the GlobalHire Talent API v2. Single reads always revalidate:
 * GlobalHire's edge serves cached copies (`Age`, `Warning: 110`) otherwise,
 * and a decision taken on one of those can undo a newer change.
 */
export class GlobalHire {
  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  async call(method: string, path: string, body?: unknown): Promise<Answer> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}${path}`, {
        method,
        headers: {
          "X-GH-Api-Key": this.config.apiKey,
          accept: "application/json",
          "cache-control": "no-cache",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status === 429 && attempt < 5) {
        const wait = Number(res.headers.get("retry-after"));
        await sleep((Number.isFinite(wait) && wait > 0 ? wait : 2) * 1000);
        continue;
      }
      if (res.status >= 500 && method === "GET" && attempt < 3) {
        await sleep(200 * (attempt + 1));
        continue;
      }
      return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
    }
  }

  placement(id: string): Promise<Answer> {
    return this.call("GET", `/v2/placements/${encodeURIComponent(id)}`);
  }

  candidate(id: string): Promise<Answer> {
    return this.call("GET", `/v2/candidates/${encodeURIComponent(id)}`);
  }

  /** Every placement, archived ones included, page by page until `total_count` is reached. */
  async allPlacements(): Promise<Record<string, unknown>[]> {
    const out: Record<string, unknown>[] = [];
    for (let offset = 0; ; ) {
      const page = await this.call("GET", `/v2/placements?limit=200&offset=${offset}`);
      if (page.status !== 200) throw new Error(`GET placements offset ${offset}: ${page.status}`);
      const items = page.body.items as Record<string, unknown>[];
      out.push(...items);
      offset += items.length;
      if (!items.length || offset >= Number(page.body.total_count)) return out;
    }
  }

  setState(id: string, state: string): Promise<Answer> {
    return this.call("PATCH", `/v2/placements/${encodeURIComponent(id)}`, { state });
  }

  book(placements: Record<string, unknown>[]): Promise<Answer> {
    return this.call("POST", "/v2/placements/batch", { placements });
  }
}
