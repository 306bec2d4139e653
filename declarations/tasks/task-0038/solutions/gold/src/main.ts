import { isDeepStrictEqual } from "node:util";
import { loadConfig } from "./config.ts";
import { CrewCallClient } from "./crewcall.ts";
import { type Change, readCopy, readState, type Row, toRow, writeAll } from "./roster.ts";

const WORKERS = "/partner/v1/workers";
const DELETIONS = "/partner/v1/deletions";

/** Whether CrewCall's record says something the copy's row does not (the change filter is inclusive: unchanged rows come back). */
function differs(row: Row, next: Row): boolean {
  return row.is_deleted || row.updated_at !== next.updated_at || !isDeepStrictEqual(row.data, next.data);
}

/**
 * The first run copies the whole roster; later runs apply what changed since the last one.
 * A worker is new when the copy does not have them: worker numbers are not a sequence (a
 * renumbered roster starts below the old numbers).
 */
async function sync(): Promise<void> {
  const config = loadConfig();
  const client = new CrewCallClient(config);
  const state = readState(config.outputDir);
  const copy = readCopy(config.outputDir);
  const changes: Change[] = [];
  // The next run reads from CrewCall's clock as this run starts, before any record is read. Not from
  // the newest `updated_at` seen: the change filter is inclusive, and a re-imported roster shares one
  // instant, so asking from it again would read the whole roster again.
  await client.get(DELETIONS, { limit: "1" });
  const since = client.serverTime;
  if (!since) throw new Error("CrewCall sent no X-CrewCall-Time");

  if (state === null) {
    for (const w of await client.all(WORKERS)) {
      copy.set(String(w.id), toRow(w));
      changes.push({ source_id: String(w.id), change: "added" });
    }
    writeAll(config.outputDir, copy, changes, { since });
    console.error(`sync: first run, ${copy.size} workers copied`);
    return;
  }

  const start = state.since ?? "1970-01-01T00:00:00Z";
  const changed = new Map<string, Change["change"]>();
  for (const w of await client.changedSince(WORKERS, start)) {
    const id = String(w.id);
    const next = toRow(w);
    const row = copy.get(id);
    if (row && !differs(row, next)) continue;
    copy.set(id, next);
    if (!changed.has(id)) changed.set(id, row ? "updated" : "added");
  }
  for (const d of await client.changedSince(DELETIONS, start)) {
    if (d.object !== "worker") continue;
    const row = copy.get(String(d.id));
    if (row && !row.is_deleted) {
      row.is_deleted = true;
      // Added and deleted between two runs: never in the scheduling tool, nothing to report.
      if (changed.get(row.source_id) === "added") changed.delete(row.source_id);
      else changed.set(row.source_id, "removed");
    }
  }
  for (const [source_id, change] of changed) changes.push({ source_id, change });
  writeAll(config.outputDir, copy, changes, { since });
  console.error(`sync: ${changes.length} changes applied`);
}

const command = process.argv[2];
const commands: Record<string, () => Promise<void>> = { sync };
if (!commands[command]) {
  console.error("usage: node src/main.ts sync");
  process.exit(2);
}
commands[command]().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
