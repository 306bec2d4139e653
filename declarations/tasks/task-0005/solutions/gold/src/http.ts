const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Seconds to wait from a Retry-After header: a number of seconds or an HTTP date. */
export function retryAfterMs(header: string | null): number {
  if (!header) return 1000;
  const s = Number(header);
  if (Number.isFinite(s)) return Math.max(0, s * 1000) + 50;
  const at = Date.parse(header);
  return Number.isNaN(at) ? 1000 : Math.max(0, at - Date.now()) + 250;
}

export class HttpError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(method: string, url: string, status: number, body: unknown) {
    super(`${method} ${new URL(url).pathname} failed with ${status}: ${JSON.stringify(body).slice(0, 300)}`);
    this.status = status;
    this.body = body;
  }
}

/**
 * One HTTP call with the retries that are always safe: 429 after the advertised
 * wait, 5xx with backoff. Writes are only retried when they carry an
 * idempotency key, so a retry can never create a second record.
 */
export async function send(url: string, init: RequestInit & { headers: Record<string, string> }, opts: { retryWrites: boolean }): Promise<{ res: Response; body: unknown }> {
  const method = init.method ?? "GET";
  const safe = method === "GET" || opts.retryWrites;
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(url, init);
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    if (res.status === 429 && attempt < 8) {
      await sleep(retryAfterMs(res.headers.get("retry-after")));
      continue;
    }
    if (res.status >= 500 && safe && attempt < 5) {
      await sleep(200 * 2 ** attempt);
      continue;
    }
    return { res, body };
  }
}

/** Runs `fn` over items, at most `limit` at a time; results in input order. */
export async function inPool<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i]);
      }
    }),
  );
  return results;
}

/** Writes go one at a time: TalentForge audits partner traffic in order, and nothing here is slow enough to need more. */
export const CONCURRENCY = 1;
