import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { GlobalHireClient, type Candidate } from "./globalhire.ts";
import { later, readMirror, readState, toRow, writeAtomic, writeMirror, writeState, type Row } from "./mirror.ts";

/** Back-fill progress: the next offset and the rows read so far, saved after every page. */
interface Progress {
  offset: number;
  watermark: string | null;
  rows: Row[];
}

/** Reads the whole candidate pool and writes the mirror; a rerun after a failure resumes from the saved offset. */
async function backfill(): Promise<void> {
  const config = loadConfig();
  const client = new GlobalHireClient(config);
  const progressFile = join(config.outputDir, ".backfill-progress.json");
  const progress: Progress = existsSync(progressFile) ? JSON.parse(readFileSync(progressFile, "utf8")) : { offset: 0, watermark: null, rows: [] };
  const rows = new Map<string, Row>(progress.rows.map((r) => [r.source_id, r]));
  let { offset, watermark } = progress;
  for (;;) {
    const page = await client.candidatePage(offset);
    for (const c of page.items) {
      rows.set(String(c.id), toRow(c));
      watermark = later(watermark, c.updated_at);
    }
    offset += page.items.length;
    writeAtomic(progressFile, JSON.stringify({ offset, watermark, rows: [...rows.values()] } satisfies Progress));
    if (page.items.length === 0 || offset >= page.total_count) break;
  }
  writeMirror(config.outputDir, rows);
  writeState(config.outputDir, { watermark });
  rmSync(progressFile, { force: true });
  console.error(`backfill: ${rows.size} candidates mirrored`);
}

/** Applies the candidates changed since the last run to the mirror. */
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
