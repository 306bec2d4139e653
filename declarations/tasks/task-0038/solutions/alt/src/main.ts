// Alt: watermark on CrewCall's clock (X-CrewCall-Time of the run's first answer), changes told by updated_at alone.
import { loadConfig } from "./config.ts";
import { CrewCallClient } from "./crewcall.ts";
import { type Change, readCopy, readState, toRow, writeAll } from "./roster.ts";

const WORKERS = "/partner/v1/workers";
const DELETIONS = "/partner/v1/deletions";

async function sync(): Promise<void> {
  const config = loadConfig();
  const client = new CrewCallClient(config);
  const state = readState(config.outputDir);
  const copy = readCopy(config.outputDir);
  const changes: Change[] = [];
  // The first answer's server time, taken before any record is read: the next run reads from it.
  await client.get(DELETIONS, { limit: "1" });
  const runStart = client.serverTime;
  if (!runStart) throw new Error("CrewCall sent no X-CrewCall-Time");

  if (state === null) {
    for (const w of await client.all(WORKERS)) {
      copy.set(String(w.id), toRow(w));
      changes.push({ source_id: String(w.id), change: "added" });
    }
  } else {
    const since = state.since ?? "1970-01-01T00:00:00Z";
    const removed = new Set<string>();
    for (const d of await client.changedSince(DELETIONS, since)) if (d.object === "worker") removed.add(String(d.id));
    for (const w of await client.changedSince(WORKERS, since)) {
      const id = String(w.id);
      const row = copy.get(id);
      if (row && row.updated_at === String(w.updated_at) && !row.is_deleted) continue;
      copy.set(id, toRow(w));
      changes.push({ source_id: id, change: row ? "updated" : "added" });
    }
    for (const id of removed) {
      const row = copy.get(id);
      if (!row || row.is_deleted) continue;
      row.is_deleted = true;
      changes.push({ source_id: id, change: "removed" });
    }
  }
  writeAll(config.outputDir, copy, changes, { since: runStart });
  console.error(`sync: ${changes.length} changes`);
}

const command = process.argv[2];
if (command !== "sync") {
  console.error("usage: node src/main.ts sync");
  process.exit(2);
}
sync().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
