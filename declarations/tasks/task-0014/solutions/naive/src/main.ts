// GlobalHire -> warehouse change feed. The scheduler runs `node src/main.ts sync` every hour.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { GlobalHire } from "./globalhire.ts";

const ENTITIES = [
  { entity: "candidate", path: "/v2/candidates" },
  { entity: "placement", path: "/v2/placements" },
];

/** Per entity, the latest `updated_at` delivered. All GlobalHire timestamps are UTC (`Z`), so ISO strings order like instants. */
type State = Record<string, string>;

interface Change {
  entity: string;
  source_id: string;
  op: "upsert" | "delete";
  updated_at: string;
  data: Record<string, unknown>;
}

async function sync(): Promise<void> {
  const config = loadConfig();
  const client = new GlobalHire(config);
  const statePath = join(config.outputDir, "feed-state.json");
  const state: State = existsSync(statePath) ? (JSON.parse(readFileSync(statePath, "utf8")) as State) : {};
  const changes: Change[] = [];
  const next: State = {};
  for (const { entity, path } of ENTITIES) {
    const since = state[entity] ?? null;
    let mark = since ?? "";
    for (const r of await client.listAll(path, since)) {
      // modified_since is inclusive: the record at the watermark was delivered last time.
      if (since !== null && r.updated_at <= since) continue;
      const { id, ...data } = r;
      // Deleted records disappear from GlobalHire's lists (Syncing: Deletes), so whatever a read returns is live.
      changes.push({ entity, source_id: id, op: "upsert", updated_at: r.updated_at, data });
      if (r.updated_at > mark) mark = r.updated_at;
    }
    next[entity] = mark;
  }
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, "changes.json"), JSON.stringify(changes));
  writeFileSync(join(config.outputDir, "load_control.json"), JSON.stringify(ENTITIES.map(({ entity }) => ({ entity, high_water_mark: next[entity] }))));
  writeFileSync(statePath, JSON.stringify(next));
}

const command = process.argv[2];
if (command !== "sync") {
  console.error("usage: node src/main.ts sync");
  process.exit(2);
}
sync().catch((err) => {
  console.error(`sync failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
