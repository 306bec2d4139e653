import { loadConfig } from "./config.ts";
import { ENTITIES, type Row, readMirror, readState, toRow, writeMirror, writeState } from "./mirror.ts";
import { MaintenanceError, VettlyClient } from "./vettly.ts";

/**
 * One sync. The first reads every list; later ones read what changed since the
 * watermark of the last sync that finished, which is Vettly's clock when that sync
 * began. The watermark moves only when every list and the purge feed have been read,
 * so a sync stopped part-way is simply done again from the same watermark.
 */
async function sync(): Promise<void> {
  const config = loadConfig();
  const client = new VettlyClient(config);
  const state = readState(config.outputDir);
  const since = state.watermark;
  const mirrors = new Map<string, Map<string, Row>>(ENTITIES.map((e) => [e.name, since ? readMirror(config.outputDir, e.file) : new Map()]));
  try {
    for (const e of ENTITIES) {
      const rows = mirrors.get(e.name)!;
      const items = await client.listAll(e.path, since);
      for (const item of items) rows.set(String(item.id), toRow(item));
      writeMirror(config.outputDir, e.file, rows);
      console.error(`${e.path}: ${items.length} ${since ? "changed" : ""} records`);
    }
    if (since) {
      const purges = await client.listAll("/v1/purges", since);
      for (const p of purges) {
        const row = mirrors.get(String(p.object_type))?.get(String(p.id));
        if (row) row.is_deleted = true;
      }
      for (const e of ENTITIES) writeMirror(config.outputDir, e.file, mirrors.get(e.name)!);
      console.error(`/v1/purges: ${purges.length} purges since ${since}`);
    }
  } catch (err) {
    if (err instanceof MaintenanceError) {
      console.error(`stopping: ${err.message}; the next run picks up from ${since ?? "the start"}`);
      process.exit(3);
    }
    throw err;
  }
  if (!client.serverTime) throw new Error("Vettly sent no X-Vettly-Server-Time header");
  writeState(config.outputDir, { watermark: client.serverTime });
  console.error(`sync done; next sync reads changes since ${client.serverTime}`);
}

if (process.argv[2] !== "sync") {
  console.error("usage: node src/main.ts sync");
  process.exit(2);
}
sync().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
