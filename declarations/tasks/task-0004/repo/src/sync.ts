import type { Config } from "./config.ts";
import { readMirror, readState, toRow, writeMirror, writeState, type Row } from "./mirror.ts";
import { StafflineClient } from "./staffline-client.ts";

/** What the mirror holds: one file per StaffLine object type. */
const ENTITIES: { type: string; path: string; file: string; params: Record<string, string> }[] = [
  { type: "candidate", path: "/svc/candidates", file: "candidates.json", params: {} },
  { type: "job", path: "/svc/jobs", file: "jobs.json", params: {} },
  // Applications carry their pipeline stage only when asked for it.
  { type: "application", path: "/svc/applications", file: "applications.json", params: { include_stage: "true" } },
];

/** Per file: records read, rows marked deleted, rows written. */
export type Summary = Record<string, { read: number; deleted: number; total: number }>;

/**
 * A full sync reads every list and rewrites the mirror; an incremental one
 * reads what changed since the last run, applies StaffLine's tombstones and
 * merges both into the mirror on disk.
 */
export async function sync(config: Config, opts: { incremental: boolean }): Promise<Summary> {
  const client = new StafflineClient(config);
  const state = readState(config.outputDir);
  if (opts.incremental && !state) throw new Error("no previous sync in OUTPUT_DIR: run `sync` first");

  // Stamp the run before reading anything, so that whatever changes while it
  // runs is picked up by the next one.
  const runStartedMs = Date.now();
  const since: Record<string, string> = opts.incremental ? { modified_since: String(state!.last_sync_ms) } : {};

  // Deleted records leave the lists and show up in the tombstone feed instead.
  const tombstones = opts.incremental ? await client.listAll("/svc/tombstones") : [];

  const summary: Summary = {};
  for (const e of ENTITIES) {
    const mirror = opts.incremental ? readMirror(config.outputDir, e.file) : new Map<string, Row>();
    const records = await client.listAll(e.path, { ...e.params, ...since });
    for (const record of records) mirror.set(String(record.id), toRow(record));
    let deleted = 0;
    for (const t of tombstones) {
      if (t.object_type !== e.type) continue;
      const id = String(t.id);
      const row = mirror.get(id) ?? { source_id: id, data: {}, updated_at: t.deleted_ts, is_deleted: true };
      row.is_deleted = true;
      mirror.set(id, row);
      deleted += 1;
    }
    writeMirror(config.outputDir, e.file, mirror);
    summary[e.file] = { read: records.length, deleted, total: mirror.size };
  }
  writeState(config.outputDir, { last_sync_ms: runStartedMs });
  return summary;
}
