import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { type CaseNote, toCaseNote } from "./notes.ts";
import { RosterlyClient } from "./rosterly.ts";

async function mirror(): Promise<void> {
  const config = loadConfig();
  const rosterly = new RosterlyClient(config);
  await rosterly.login();
  const workers = await rosterly.all("/api/v3/workers");
  const rows: CaseNote[] = [];
  for (const worker of workers) {
    for (const note of await rosterly.notesOf(worker.id)) rows.push(toCaseNote(note));
  }
  rows.sort((a, b) => (a.note_id < b.note_id ? -1 : a.note_id > b.note_id ? 1 : 0));
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, "case_notes.json"), `${JSON.stringify(rows, null, 2)}\n`);
  console.log(`mirrored ${rows.length} notes of ${workers.length} workers`);
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
