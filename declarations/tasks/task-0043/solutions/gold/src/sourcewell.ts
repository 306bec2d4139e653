/** A small Sourcewell Graph API client: the key header, retries that wait as asked, and list pages followed to the end. */

const MAX_ATTEMPTS = 6;
/** Reads of a whole list before giving up on it holding still. */
const MAX_READS = 5;

export interface Page<T> {
  d: T[];
  cnt: number;
  _links?: { next?: { href?: string } };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Sourcewell {
  calls = 0;
  /** Sourcewell's clock (whole seconds since the epoch, its `X-SW-Now` header) at the last answer read. */
  nowS: number | null = null;
  private readonly baseUrl: string;
  private readonly apiKey: string;
  constructor(baseUrl: string, apiKey: string) {
    this.baseUrl = baseUrl;
    this.apiKey = apiKey;
  }

  /** GET a path (or an absolute link the API gave), retrying throttles, failures and answers cut off mid-body. */
  async get<T>(pathOrUrl: string): Promise<T> {
    const url = /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${this.baseUrl}${pathOrUrl}`;
    for (let attempt = 1; ; attempt++) {
      let status = 0;
      let retryAfter: string | null = null;
      let body: string;
      try {
        this.calls += 1;
        const res = await fetch(url, { headers: { "X-SW-Key": this.apiKey, Accept: "application/json" } });
        status = res.status;
        retryAfter = res.headers.get("retry-after");
        body = await res.text();
        const now = Number(res.headers.get("x-sw-now"));
        if (Number.isFinite(now) && now > 0) this.nowS = now;
        if (res.ok) return JSON.parse(body) as T;
      } catch (err) {
        // The connection dropped, or the answer was cut off before its end: read it again.
        if (attempt >= MAX_ATTEMPTS) throw err;
        await sleep(50 * attempt);
        continue;
      }
      if ((status === 429 || status >= 500) && attempt < MAX_ATTEMPTS) {
        const after = Number(retryAfter);
        await sleep(Number.isFinite(after) && after > 0 ? after * 1000 : 50 * attempt);
        continue;
      }
      throw new Error(`GET ${url} answered ${status}: ${body.slice(0, 200)}`);
    }
  }

  /**
   * Every record of a list: 100 a page (the real cap), following `_links.next.href`. The list is live and paged by offset, so
   * a read can repeat some records and miss others: a read counts distinct ids against `cnt`, and the list is read again
   * from the start until one read holds every record it counts.
   */
  async list<T>(path: string): Promise<T[]> {
    for (let read = 1; ; read++) {
      const byId = new Map<string, T>();
      let rows = 0;
      let next: string | undefined = `${path}${path.includes("?") ? "&" : "?"}lim=100`;
      let cnt = 0;
      while (next) {
        const page: Page<T> = await this.get<Page<T>>(next);
        for (const r of page.d) {
          byId.set(String((r as { id?: unknown }).id ?? `#${rows}`), r);
          rows += 1;
        }
        cnt = page.cnt;
        const href = page._links?.next?.href;
        next = href && page.d.length ? (href.startsWith("/") || /^https?:/.test(href) ? href : `/${href}`) : undefined;
      }
      if (byId.size === cnt && rows === cnt) return [...byId.values()];
      if (read >= MAX_READS) throw new Error(`${path}: the list kept moving (read ${byId.size} distinct records in ${rows} of ${cnt})`);
    }
  }
}
