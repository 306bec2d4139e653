import { loadConfig } from "./config.ts";
import { GlobalHireClient, PAGE_SIZE, type Candidate } from "./globalhire.ts";
import { later, readMirror, readState, toRow, writeMirror, writeState, type Row } from "./mirror.ts";

/** Every candidate (or every candidate changed since `since`), page by page. */
async function readAll(client: GlobalHireClient, since?: string): Promise<Candidate[]> {
  const all: Candidate[] = [];
  for (let offset = 0; ; ) {
    const page = await client.candidatePage(offset, since);
    all.push(...page.items);
    offset += page.items.length;
    if (page.items.length === 0 || offset >= page.total_count) return all;
  }
}

/** Reads the whole candidate pool and writes the mirror from scratch. */
async function backfill(): Promise<void> {
  const config = loadConfig();
  const client = new GlobalHireClient(config);
  const rows = new Map<string, Row>();
  let watermark: string | null = null;
  for (const c of await readAll(client)) {
    rows.set(String(c.id), toRow(c));
    watermark = later(watermark, c.updated_at);
  }
  writeMirror(config.outputDir, rows);
  writeState(config.outputDir, { watermark });
  console.error(`backfill: ${rows.size} candidates mirrored (${Math.ceil(rows.size / PAGE_SIZE)} pages)`);
}

/** Applies the candidates changed since the last run to the mirror. */
async function incremental(): Promise<void> {
  const config = loadConfig();
  const client = new GlobalHireClient(config);
  const state = readState(config.outputDir);
  if (state.watermark === null) throw new Error("no back-fill has completed yet: run backfill first");
  const rows = readMirror(config.outputDir);
  let watermark = state.watermark;
  const changed = await readAll(client, state.watermark);
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
