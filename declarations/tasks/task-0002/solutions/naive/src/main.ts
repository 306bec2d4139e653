import { loadConfig } from "./config.ts";
import { readMirror, readState, toRow, writeMirror, writeState, type Row } from "./mirror.ts";
import { TalentforgeClient } from "./talentforge-client.ts";

/** The documented maximum for note pages. */
const NOTE_PAGE = 50;

async function run(command: "backfill" | "incremental"): Promise<void> {
  const config = loadConfig();
  const client = new TalentforgeClient(config);
  const state = readState(config.outputDir);
  if (command === "incremental" && !state.watermark) throw new Error("no back-fill has run yet: run backfill first");

  const candidates = command === "backfill" ? new Map<string, Row>() : readMirror(config.outputDir, "candidates.json");
  const notes = command === "backfill" ? new Map<string, Row>() : readMirror(config.outputDir, "notes.json");
  const since: Record<string, string> = command === "incremental" ? { updated_since: state.watermark! } : {};
  let watermark = state.watermark ?? "";
  const changed = await client.listAll("/rest/candidates", since, 100);
  for (const record of changed) {
    candidates.set(String(record.id), toRow(record));
    if (String(record.updated_at) > watermark) watermark = String(record.updated_at);
  }
  // Re-read the notes of every candidate that changed since the last run.
  for (const candidate of changed) {
    for (const record of await client.listAll(`/rest/candidates/${candidate.id}/notes`, {}, NOTE_PAGE)) notes.set(String(record.id), toRow(record));
  }
  writeMirror(config.outputDir, "candidates.json", candidates);
  writeMirror(config.outputDir, "notes.json", notes);
  writeState(config.outputDir, { watermark });
}

const command = process.argv[2];
if (command !== "backfill" && command !== "incremental") {
  console.error("usage: node src/main.ts backfill|incremental");
  process.exit(2);
}
run(command).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
