import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { type CaseNote, toCaseNote } from "./notes.ts";
import { RosterlyClient, type RosterlyRecord } from "./rosterly.ts";

/**
 * A worker's whole file: the notes embedded in the worker when Rosterly says
 * that is all of them, else the worker's notes list. Reading the list only
 * where the embed is cut keeps the night well inside the request quota.
 */
async function fileOf(rosterly: RosterlyClient, worker: RosterlyRecord): Promise<RosterlyRecord[]> {
  const embedded = worker.recent_notes;
  if (worker.notes_truncated === false && Array.isArray(embedded)) return embedded as RosterlyRecord[];
  return rosterly.all(`/api/v3/workers/${encodeURIComponent(worker.id)}/notes`);
}

async function mirror(): Promise<void> {
  const config = loadConfig();
  const rosterly = new RosterlyClient(config);
  await rosterly.login();
  const workers = await rosterly.all("/api/v3/workers");
  const byId = new Map<string, CaseNote>();
  for (const worker of workers) {
    for (const note of await fileOf(rosterly, worker)) {
      if (note.deleted === true) continue;
      byId.set(note.id, toCaseNote(note));
    }
  }
  const rows = [...byId.values()].sort((a, b) => (a.note_id < b.note_id ? -1 : a.note_id > b.note_id ? 1 : 0));
  mkdirSync(config.outputDir, { recursive: true });
  const file = join(config.outputDir, "case_notes.json");
  writeFileSync(`${file}.tmp`, `${JSON.stringify(rows, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  console.log(`mirrored ${rows.length} notes of ${workers.length} workers in ${rosterly.requests} requests`);
}

const command = process.argv[2];
if (command !== "mirror") {
  console.error("usage: node src/main.ts mirror");
  process.exit(2);
}
mirror().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
