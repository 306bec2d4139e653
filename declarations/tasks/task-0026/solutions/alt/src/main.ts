import { loadConfig } from "./config.ts";
import { ENTITIES, type Row, readMirror, readState, toRow, writeMirror, writeState } from "./mirror.ts";
import { MaintenanceError, VettlyClient } from "./vettly.ts";

/**
 * Alt: one watermark per list and one for the purge feed, each committed as soon as
 * that list has been read to its end (Vettly's clock when its first page was asked
 * for). A stopped night keeps the lists it finished; the next run reads each list
 * from its own watermark.
 */
async function sync(): Promise<void> {
  const config = loadConfig();
  const client = new VettlyClient(config);
  const state = readState(config.outputDir);
  const firstEver = Object.keys(state.watermarks).length === 0;
  const mirrors = new Map<string, Map<string, Row>>(ENTITIES.map((e) => [e.name, readMirror(config.outputDir, e.file)]));
  try {
    for (const e of ENTITIES) {
      const since = state.watermarks[e.path] ?? null;
      const rows = since ? mirrors.get(e.name)! : new Map<string, Row>();
      mirrors.set(e.name, rows);
      const started = client.lastTime;
      const items = await client.listAll(e.path, since);
      for (const item of items) rows.set(String(item.id), toRow(item));
      writeMirror(config.outputDir, e.file, rows);
      const mark = started ?? client.serverTime;
      if (!mark) throw new Error("Vettly sent no X-Vettly-Server-Time header");
      state.watermarks[e.path] = mark;
      writeState(config.outputDir, state);
    }
    const purgeSince = state.watermarks["/v1/purges"] ?? null;
    if (!firstEver && purgeSince) {
      const started = client.lastTime;
      const purges = await client.listAll("/v1/purges", purgeSince);
      for (const p of purges) {
        const row = mirrors.get(String(p.object_type))?.get(String(p.id));
        if (row) row.is_deleted = true;
      }
      for (const e of ENTITIES) writeMirror(config.outputDir, e.file, mirrors.get(e.name)!);
      state.watermarks["/v1/purges"] = started ?? purgeSince;
    } else if (firstEver) {
      // Nothing was mirrored before this run started: purges from now on are what matter.
      state.watermarks["/v1/purges"] = client.serverTime!;
    }
    writeState(config.outputDir, state);
  } catch (err) {
    if (err instanceof MaintenanceError) {
      console.error(`stopping: ${err.message}; lists already read keep their watermarks`);
      process.exit(3);
    }
    throw err;
  }
}

if (process.argv[2] !== "sync") {
  console.error("usage: node src/main.ts sync");
  process.exit(2);
}
sync().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
