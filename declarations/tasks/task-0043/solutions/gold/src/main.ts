import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Endorsement, type IndexRow, indexRow, type Membership, type Pool, type Skill, skillsByPerson } from "./capability-index.ts";
import { loadConfig } from "./config.ts";
import { Sourcewell } from "./sourcewell.ts";

async function buildIndex(): Promise<void> {
  const cfg = loadConfig();
  const sw = new Sourcewell(cfg.baseUrl, cfg.apiKey);
  const pools = await sw.list<Pool>("/v3/pools");
  // A pool embeds only its first memberships; the flag says when the rest is only in its members list.
  const memberships = new Map<string, Membership[]>();
  for (const p of pools) {
    memberships.set(p.id, p.mb_truncated !== false || !Array.isArray(p.mb) ? await sw.list<Membership>(`/v3/pools/${encodeURIComponent(p.id)}/members`) : p.mb);
  }
  const alive = new Set((await sw.list<{ id: string }>("/v3/talent")).map((t) => t.id));
  const held = skillsByPerson(await sw.list<Skill>("/v3/skills"), await sw.list<Endorsement>("/v3/endorsements"));
  // "Now" is Sourcewell's clock, which stamps the removals; the host's only when no answer carried it.
  const nowS = sw.nowS ?? Math.floor(Date.now() / 1000);
  const rows: IndexRow[] = pools.map((p) => indexRow(p, memberships.get(p.id) ?? [], (tid) => alive.has(tid), held, nowS)).sort((a, b) => (a.pool_id < b.pool_id ? -1 : 1));
  mkdirSync(cfg.outputDir, { recursive: true });
  writeFileSync(join(cfg.outputDir, "capability_index.json"), `${JSON.stringify(rows, null, 2)}\n`);
  console.log(`capability index: ${rows.length} pools, ${sw.calls} calls`);
}

const [command] = process.argv.slice(2);
if (command !== "index") {
  console.error("usage: node src/main.ts index");
  process.exit(2);
}
buildIndex().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
