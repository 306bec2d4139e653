import type { Config } from "./config.ts";

export type CrewRecord = Record<string, unknown>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Reads one pass of a CrewCall list 100 at a time, until an empty page; waits out 429s and retries 5xx. */
async function readPass(config: Config, path: string): Promise<CrewRecord[]> {
  const out: CrewRecord[] = [];
  for (let offset = 0; ; ) {
    const url = `${config.baseUrl}${path}?limit=100&offset=${offset}`;
    let page: CrewRecord[] | null = null;
    for (let attempt = 0; page === null; attempt++) {
      const res = await fetch(url, { headers: { Authorization: `Token ${config.apiKey}` } });
      if (res.ok) page = ((await res.json()) as { records: CrewRecord[] }).records;
      else if ((res.status === 429 || res.status >= 500) && attempt < 10) {
        await res.body?.cancel();
        const wait = Number(res.headers.get("retry-after"));
        await sleep(res.status === 429 && Number.isFinite(wait) && wait > 0 ? wait * 1000 : 250);
      } else throw new Error(`${path}: HTTP ${res.status}`);
    }
    if (page.length === 0) return out;
    out.push(...page);
    offset += page.length;
  }
}

/**
 * A whole CrewCall list, once each. The calendars change while they are read (new posts go to the
 * head and push the rest along), so the list is read again until a whole pass brings no record the
 * earlier passes had not met.
 */
export async function readAll(config: Config, path: string): Promise<CrewRecord[]> {
  const byId = new Map<string, CrewRecord>();
  for (let pass = 0; pass < 5; pass++) {
    const before = byId.size;
    for (const r of await readPass(config, path)) byId.set(String(r.id), r);
    if (pass > 0 && byId.size === before) return [...byId.values()];
  }
  throw new Error(`${path} kept moving: every pass met records the one before had not`);
}
