import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { type CaseNote, toCaseNote } from "./notes.ts";
import { RosterlyClient } from "./rosterly.ts";

/** Reads every worker's notes list (the whole file), waiting out the quota whenever Rosterly asks. */
async function mirror(): Promise<void> {
  const config = loadConfig();
  const rosterly = new RosterlyClient(config);
  await rosterly.login();
  const workers = await rosterly.all("/api/v3/workers");
  const rows: CaseNote[] = [];
  for (const worker of workers) {
    for (const note of await rosterly.all(`/api/v3/workers/${encodeURIComponent(worker.id)}/notes`)) {
      if (note.deleted !== true) rows.push(toCaseNote(note));
    }
  }
  rows.sort((a, b) => a.note_id.localeCompare(b.note_id));
  mkdirSync(config.outputDir, { recursive: true });
  const file = join(config.outputDir, "case_notes.json");
  writeFileSync(`${file}.tmp`, JSON.stringify(rows));
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
