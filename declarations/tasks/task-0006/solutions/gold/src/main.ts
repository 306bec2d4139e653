import { loadConfig } from "./config.ts";
import { GlobalHireClient, type Candidate } from "./globalhire.ts";
import { later, readMirror, readState, toRow, writeMirror, writeState, type Row } from "./mirror.ts";
import { BackfillProgress } from "./progress.ts";

/**
 * Reads the whole candidate pool and writes the mirror from scratch. Each page
 * is stored under OUTPUT_DIR as soon as it arrives; a run that stopped half-way
 * (crash, kill, or an outage it gave up on) is resumed by the next `backfill`
 * at the first page it had not stored, without reading earlier pages again.
 */
async function backfill(): Promise<void> {
  const config = loadConfig();
  const client = new GlobalHireClient(config);
  const progress = new BackfillProgress(config.outputDir);
  let { nextOffset: offset, watermark } = progress.cursor();
  if (offset > 0) console.error(`backfill: resuming at offset ${offset}`);
  for (;;) {
    const page = await client.candidatePage(offset);
    for (const c of page.items) watermark = later(watermark, c.updated_at);
    const next = offset + page.items.length;
    progress.savePage(offset, page.items, { nextOffset: next, watermark });
    offset = next;
    if (page.items.length === 0 || offset >= page.total_count) break;
  }
  const rows = new Map<string, Row>();
  for (const c of progress.stored()) rows.set(String(c.id), toRow(c));
  writeMirror(config.outputDir, rows);
  writeState(config.outputDir, { watermark });
  progress.clear();
  console.error(`backfill: ${rows.size} candidates mirrored`);
}

/** Applies the candidates changed since the last run (archived ones included) to the mirror. */
async function incremental(): Promise<void> {
  const config = loadConfig();
  const client = new GlobalHireClient(config);
  const state = readState(config.outputDir);
  if (state.watermark === null) throw new Error("no back-fill has completed yet: run backfill first");
  const rows = readMirror(config.outputDir);
  let watermark = state.watermark;
  const changed: Candidate[] = [];
  for (let offset = 0; ; ) {
    const page = await client.candidatePage(offset, state.watermark);
    changed.push(...page.items);
    offset += page.items.length;
    if (page.items.length === 0 || offset >= page.total_count) break;
  }
  for (const c of changed) {
    rows.set(String(c.id), toRow(c));
    watermark = later(watermark, c.updated_at);
  }
  writeMirror(config.outputDir, rows);
  writeState(config.outputDir, { watermark });
  console.error(`incremental: ${changed.length} changed candidates applied`);
}

const command = process.argv[2];
const commands: Record<string, () => Promise<void>> = { backfill, incremental };
if (!commands[command]) {
  console.error("usage: node src/main.ts backfill|incremental");
  process.exit(2);
}
commands[command]().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
