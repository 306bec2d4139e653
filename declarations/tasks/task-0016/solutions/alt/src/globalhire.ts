import type { Config } from "./config.ts";

/** One answer from GlobalHire: status, parsed body (null when empty) and headers. */
export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A client for the GlobalHire Talent API v2. Reads go out plain; GlobalHire's
 * edge may answer one from its cache, and says so (`Age`, `Warning: 110`):
 * such an answer is read again with `Cache-Control: no-cache` before anything
 * is decided on it.
 */
export class GlobalHire {
  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  async call(method: string, path: string, body?: unknown, revalidate = false): Promise<Answer> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}${path}`, {
        method,
        headers: {
          "X-GH-Api-Key": this.config.apiKey,
          accept: "application/json",
          ...(revalidate ? { "cache-control": "no-cache" } : {}),
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

  /** One placement; a cached answer is fetched again, revalidated. */
  async placement(id: string): Promise<Answer> {
    const path = `/v2/placements/${encodeURIComponent(id)}`;
    const first = await this.call("GET", path);
    const cached = Number(first.headers.get("age") ?? 0) > 0 || /\b110\b/.test(first.headers.get("warning") ?? "");
    return cached ? this.call("GET", path, undefined, true) : first;
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
