import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";

// Written from the Sourcewell docs as they read: pools embed every membership in `mb`, `lim` goes
// up to 500, timestamps are milliseconds since the epoch, 429s carry Retry-After in seconds.

interface Page<T> {
  d: T[];
  _links?: { next?: { href?: string } };
}

const cfg = loadConfig();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function get<T>(path: string): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(/^https?:/.test(path) ? path : `${cfg.baseUrl}${path}`, { headers: { "X-SW-Key": cfg.apiKey } });
    if (res.ok) return (await res.json()) as T;
    if ((res.status === 429 || res.status >= 500) && attempt < 6) {
      await sleep((Number(res.headers.get("retry-after")) || 0.05 * attempt) * 1000);
      continue;
    }
    throw new Error(`GET ${path}: ${res.status}`);
  }
}

async function list<T>(path: string): Promise<T[]> {
  const out: T[] = [];
  let next: string | undefined = `${path}?lim=500`;
  while (next) {
    const page: Page<T> = await get<Page<T>>(next);
    out.push(...page.d);
    next = page.d.length ? page._links?.next?.href : undefined;
  }
  return out;
}

interface Pool {
  id: string;
  nm: string;
  mb: { tid: string; ca: number; ra: number | null }[];
}

async function main(): Promise<void> {
  const pools = await list<Pool>("/v3/pools");
  const alive = new Set((await list<{ id: string }>("/v3/talent")).map((t) => t.id));
  const skills = new Map((await list<{ id: string; nm: string; ret: boolean }>("/v3/skills")).map((s) => [s.id, s]));
  const held = new Map<string, Set<string>>();
  for (const e of await list<{ tid: string; sid: string; lvl: number }>("/v3/endorsements")) {
    const s = skills.get(e.sid);
    if (!s || s.ret || e.lvl < 3) continue;
    if (!held.has(e.tid)) held.set(e.tid, new Set());
    held.get(e.tid)!.add(s.nm);
  }
  const rows = pools
    .map((p) => {
      const live = p.mb.filter((m) => m.ra === null && alive.has(m.tid));
      const ids = [...new Set(live.map((m) => m.tid))].sort();
      const last = live.length ? Math.max(...live.map((m) => m.ca)) : null;
      return {
        pool_id: p.id,
        name: p.nm,
        people: ids.length,
        talent_ids: ids,
        skills: [...new Set(ids.flatMap((t) => [...(held.get(t) ?? [])]))].sort(),
        last_added_at: last === null ? null : new Date(last).toISOString(),
      };
    })
    .sort((a, b) => (a.pool_id < b.pool_id ? -1 : 1));
  mkdirSync(cfg.outputDir, { recursive: true });
  writeFileSync(join(cfg.outputDir, "capability_index.json"), JSON.stringify(rows, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
