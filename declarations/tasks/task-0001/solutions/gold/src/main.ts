import { loadConfig } from "./config.ts";
import { readMirror, readState, toRow, writeMirror, writeState, type Row } from "./mirror.ts";
import { StafflineClient } from "./staffline-client.ts";

const ENTITIES = [
  { file: "candidates.json", path: "/svc/candidates", type: "candidate", params: {} },
  { file: "jobs.json", path: "/svc/jobs", type: "job", params: {} as Record<string, string> },
  { file: "applications.json", path: "/svc/applications", type: "application", params: { include_stage: "true" } },
] as const;

async function run(command: string): Promise<void> {
  const config = loadConfig();
  const client = new StafflineClient(config);
  const state = readState(config.outputDir);
  if (command === "incremental" && state.watermark === null) throw new Error("no back-fill has run yet: run backfill first");
  const since: Record<string, string> = command === "incremental" ? { modified_since: String(state.watermark) } : {};
  let watermark = state.watermark ?? 0;
  const tombstones = command === "incremental" ? await client.listAll("/svc/tombstones", since) : [];

  for (const e of ENTITIES) {
    const mirror = command === "backfill" ? new Map<string, Row>() : readMirror(config.outputDir, e.file);
    for (const record of await client.listAll(e.path, { ...e.params, ...since })) {
      mirror.set(String(record.id), toRow(record));
      watermark = Math.max(watermark, Number(record.mod_ts));
    }
    for (const t of tombstones) {
      if (t.object_type !== e.type) continue;
      const row = mirror.get(String(t.id));
      if (row) row.is_deleted = true;
      watermark = Math.max(watermark, Number(t.deleted_ts));
    }
    writeMirror(config.outputDir, e.file, mirror);
  }
  writeState(config.outputDir, { watermark: Math.max(watermark, client.serverTime ?? 0) });
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
