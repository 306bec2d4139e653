// Naive: the obvious patch. New workers are told by the copy, not by the id high-water mark; the rest of the job is kept as it was.
import { loadConfig } from "./config.ts";
import { CrewCallClient } from "./crewcall.ts";
import { type Change, later, readCopy, readState, toRow, writeAll } from "./roster.ts";

const WORKERS = "/partner/v1/workers";
const DELETIONS = "/partner/v1/deletions";

/** The first run copies the whole roster; later runs apply what changed since the last one. */
async function sync(): Promise<void> {
  const config = loadConfig();
  const client = new CrewCallClient(config);
  const state = readState(config.outputDir);
  const copy = readCopy(config.outputDir);
  const changes: Change[] = [];

  if (state === null) {
    let since: string | null = null;
    let maxWorkerId = 0;
    for (const w of await client.all(WORKERS)) {
      copy.set(String(w.id), toRow(w));
      changes.push({ source_id: String(w.id), change: "added" });
      since = later(since, String(w.updated_at));
      maxWorkerId = Math.max(maxWorkerId, Number(w.id));
    }
    writeAll(config.outputDir, copy, changes, { since, maxWorkerId });
    console.error(`sync: first run, ${copy.size} workers copied`);
    return;
  }

  let { since, maxWorkerId } = state;
  const start = since ?? "1970-01-01T00:00:00Z";
  for (const w of await client.changedSince(WORKERS, start)) {
    const id = String(w.id);
    since = later(since, String(w.updated_at));
    // Worker numbers restart after a renumbering: a worker is new when the copy does not have them.
    changes.push({ source_id: id, change: copy.has(id) ? "updated" : "added" });
    copy.set(id, toRow(w));
    maxWorkerId = Math.max(maxWorkerId, Number(w.id));
  }
  for (const d of await client.changedSince(DELETIONS, start)) {
    if (d.object !== "worker") continue;
    since = later(since, String(d.deleted_at));
    const row = copy.get(String(d.id));
    if (row && !row.is_deleted) {
      row.is_deleted = true;
      changes.push({ source_id: row.source_id, change: "removed" });
    }
  }
  writeAll(config.outputDir, copy, changes, { since, maxWorkerId });
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
