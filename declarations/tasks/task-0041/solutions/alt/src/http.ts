/** GET and POST with retries: throttles wait as asked, failures and dropped answers are tried again. */

const MAX_ATTEMPTS = 6;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Answer {
  status: number;
  body: unknown;
}

/** Sends a request until it gets an answer that is neither a throttle nor a server error (or runs out of attempts). */
export async function send(url: string, init: RequestInit): Promise<Answer> {
  for (let attempt = 1; ; attempt++) {
    let status = 0;
    let retryAfter: string | null = null;
    let text = "";
    try {
      const res = await fetch(url, init);
      status = res.status;
      retryAfter = res.headers.get("retry-after");
      text = await res.text();
    } catch (err) {
      if (attempt >= MAX_ATTEMPTS) throw err;
      await sleep(50 * attempt);
      continue;
    }
    if ((status === 429 || status >= 500) && attempt < MAX_ATTEMPTS) {
      const after = Number(retryAfter);
      await sleep(Number.isFinite(after) && after > 0 ? after * 1000 : 50 * attempt);
      continue;
    }
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {}
    return { status, body };
  }
}
