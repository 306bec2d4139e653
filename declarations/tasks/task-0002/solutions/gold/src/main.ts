import { loadConfig } from "./config.ts";
import { readMirror, readState, toRow, writeMirror, writeState, type Row } from "./mirror.ts";
import { TalentforgeClient } from "./talentforge-client.ts";

/** Note lists are cut to 5 per page whatever limit is asked for. */
const NOTE_PAGE = 5;
const SWEEP_CONCURRENCY = 4;

/** Runs `fn` over items with at most `limit` at a time. */
async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/** Instant of an ISO-8601 timestamp with its own UTC offset, in epoch ms. */
function instant(value: unknown): number {
  const ms = typeof value === "string" ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw new Error(`unreadable timestamp ${JSON.stringify(value)}`);
  return ms;
}

async function run(command: "backfill" | "incremental"): Promise<void> {
  const config = loadConfig();
  const client = new TalentforgeClient(config);
  const state = readState(config.outputDir);
  if (command === "incremental" && state.watermarkMs === null) throw new Error("no back-fill has run yet: run backfill first");

  // Candidates: everything on a back-fill; on a catch-up only what changed at or after the watermark.
  const candidates = command === "backfill" ? new Map<string, Row>() : readMirror(config.outputDir, "candidates.json");
  const since: Record<string, string> = command === "incremental" ? { modified_since: new Date(state.watermarkMs!).toISOString() } : {};
  let watermarkMs = state.watermarkMs ?? 0;
  for (const record of await client.listAll("/rest/candidates", since, 100)) {
    candidates.set(String(record.id), toRow(record));
    watermarkMs = Math.max(watermarkMs, instant(record.updated_at));
  }

  // Notes have no change filter, and adding or deleting a note does not change its
  // candidate's updated_at: every note list is swept to its end on every run.
  const notes = command === "backfill" ? new Map<string, Row>() : readMirror(config.outputDir, "notes.json");
  const seen = new Set<string>();
  await pool([...candidates.keys()], SWEEP_CONCURRENCY, async (id) => {
    for (const record of await client.listAll(`/rest/candidates/${encodeURIComponent(id)}/notes`, {}, NOTE_PAGE)) {
      notes.set(String(record.id), toRow(record));
      seen.add(String(record.id));
    }
  });
  // A note that no longer appears at all is gone: keep it, flagged.
  for (const [id, row] of notes) if (!seen.has(id)) row.is_deleted = true;

  writeMirror(config.outputDir, "candidates.json", candidates);
  writeMirror(config.outputDir, "notes.json", notes);
  writeState(config.outputDir, { watermarkMs });
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
