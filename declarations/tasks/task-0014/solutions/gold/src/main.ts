// GlobalHire -> warehouse change feed. The scheduler runs `node src/main.ts sync` every hour.
import { loadConfig } from "./config.ts";
import { type Change, changesSince, commit, readState, type Watermark } from "./feed.ts";
import { GlobalHire } from "./globalhire.ts";

const ENTITIES = [
  { entity: "candidate", path: "/v2/candidates" },
  { entity: "placement", path: "/v2/placements" },
];

/**
 * One run: read each entity from its watermark, then commit the changes,
 * the load control and the new watermarks together. Nothing is written
 * until every entity was read, so a run that gives up leaves the feed where
 * the last successful run put it.
 */
async function sync(): Promise<void> {
  const config = loadConfig();
  const client = new GlobalHire(config);
  const state = readState(config.outputDir);
  const changes: Change[] = [];
  const next: Record<string, Watermark> = {};
  for (const { entity, path } of ENTITIES) {
    const prev = state?.entities[entity] ?? null;
    // Sent in UTC: the instant is what counts, and a `+hh:mm` offset is one more thing to encode right.
    const since = prev && Number.isFinite(prev.ms) ? new Date(prev.ms).toISOString() : null;
    const records = await client.listAll(path, since);
    const read = changesSince(entity, records, prev);
    changes.push(...read.changes);
    next[entity] = read.next;
    console.error(`${entity}: ${records.length} read${since ? ` since ${since}` : ""}, ${read.changes.length} changes`);
  }
  commit(config.outputDir, changes, { runs: (state?.runs ?? 0) + 1, entities: next });
}

const command = process.argv[2];
if (command !== "sync") {
  console.error("usage: node src/main.ts sync");
  process.exit(2);
}
sync().catch((err) => {
  console.error(`sync failed, nothing committed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
