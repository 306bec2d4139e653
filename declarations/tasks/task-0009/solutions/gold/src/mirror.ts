import type { Config } from "./config.ts";
import { sortBy, writeJson } from "./files.ts";
import type { Staffline } from "./staffline.ts";

/** One row of candidates.json. */
interface Row {
  source_id: string;
  data: Record<string, unknown>;
  updated_at: unknown;
  is_deleted: boolean;
}

/** Candidate ids StaffLine has deleted, with when: its tombstones (lists never show deleted rows). */
export async function deletedCandidates(client: Staffline): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  for (const t of await client.listAll("/svc/tombstones")) if (t.object_type === "candidate") out.set(String(t.id), t.deleted_ts);
  return out;
}

/** `sync`: every candidate StaffLine serves, plus the deleted ones flagged, into candidates.json. */
export async function sync(config: Config, client: Staffline): Promise<void> {
  const rows = new Map<string, Row>();
  for (const record of await client.listAll("/svc/candidates")) {
    const { id, ...data } = record;
    rows.set(String(id), { source_id: String(id), data, updated_at: record.mod_ts, is_deleted: false });
  }
  for (const [id, deletedTs] of await deletedCandidates(client)) {
    if (!rows.has(id)) rows.set(id, { source_id: id, data: {}, updated_at: deletedTs, is_deleted: true });
  }
  writeJson(
    config.outputDir,
    "candidates.json",
    sortBy([...rows.values()], (r) => r.source_id),
  );
  console.error(`sync: ${rows.size} candidates`);
}
