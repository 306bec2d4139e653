/**
 * `sync`: every employee and assignment read again each night, and deletions
 * from the whole deletions list: no watermark to keep, so nothing to go stale.
 */
import type { Config } from "./config.ts";
import { type Fields, PayGrade } from "./paygrade.ts";
import { type Row, readJson, sortedRows, utc, writeJson } from "./mirror.ts";

const ENTITIES = [
  { name: "employee", op: "ListEmployees", id: "employee_id", file: "employees.json", ints: [] as string[] },
  { name: "assignment", op: "ListAssignments", id: "assignment_id", file: "assignments.json", ints: ["pay_rate", "bill_rate"] },
];

function toRow(f: Fields, id: string, ints: string[]): Row {
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f)) {
    if (k === id) continue;
    data[k] = v !== null && ints.includes(k) ? Number(v) : v;
  }
  return { source_id: String(f[id]), data, updated_at: utc(String(f.last_changed)), is_deleted: false };
}

export async function sync(config: Config): Promise<void> {
  const pg = new PayGrade(config);
  const mirrors = new Map<string, Map<string, Row>>();
  for (const e of ENTITIES) {
    // Rows of records deleted since an earlier run stay: the deletions list names them again below.
    const rows = new Map(readJson<Row[]>(config.outputDir, e.file, []).map((r) => [r.source_id, r]));
    for (const f of await pg.list(e.op, e.name)) {
      const row = toRow(f, e.id, e.ints);
      rows.set(row.source_id, row);
    }
    mirrors.set(e.name, rows);
  }
  for (const d of await pg.list("ListDeletions", "deletion")) {
    const rows = mirrors.get(String(d.record_type));
    if (!rows) continue;
    const id = String(d.id);
    rows.set(id, { source_id: id, data: rows.get(id)?.data ?? {}, updated_at: utc(String(d.deleted_at)), is_deleted: true });
  }
  for (const e of ENTITIES) writeJson(config.outputDir, e.file, sortedRows(mirrors.get(e.name)!));
  console.log(`sync: ${ENTITIES.map((e) => `${mirrors.get(e.name)!.size} ${e.name}s`).join(", ")} (${pg.calls} calls)`);
}
