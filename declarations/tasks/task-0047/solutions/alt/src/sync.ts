/**
 * `sync`: employees and assignments read from an hour before the newest change
 * the last finished run saw (a change stamped in the same second as the
 * watermark is read again rather than lost), and the whole deletions list
 * every night (it is short, and no watermark can then miss a deletion).
 */
import type { Config } from "./config.ts";
import { type Fields, PayGrade } from "./paygrade.ts";
import { type Row, readJson, sortedRows, utc, writeJson } from "./mirror.ts";

const STATE = "paygrade-state.json";
const OVERLAP_MS = 3_600_000;
const ENTITIES = [
  { name: "employee", op: "ListEmployees", id: "employee_id", file: "employees.json", ints: [] as string[] },
  { name: "assignment", op: "ListAssignments", id: "assignment_id", file: "assignments.json", ints: ["pay_rate", "bill_rate"] },
];

/** Newest change seen per entity, in UTC. */
type Newest = Record<string, string>;

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
  const newest = readJson<Newest>(config.outputDir, STATE, {});
  const next: Newest = { ...newest };
  const mirrors = new Map<string, Map<string, Row>>();
  for (const e of ENTITIES) {
    const rows = new Map(readJson<Row[]>(config.outputDir, e.file, []).map((r) => [r.source_id, r]));
    const since = newest[e.name] ? new Date(Date.parse(newest[e.name]) - OVERLAP_MS).toISOString() : undefined;
    for (const f of await pg.list(e.op, e.name, { changedSince: since })) {
      const row = toRow(f, e.id, e.ints);
      rows.set(row.source_id, row);
      if (!next[e.name] || Date.parse(row.updated_at) > Date.parse(next[e.name])) next[e.name] = row.updated_at;
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
  writeJson(config.outputDir, STATE, next);
  console.log(`sync: ${ENTITIES.map((e) => `${mirrors.get(e.name)!.size} ${e.name}s`).join(", ")} (${pg.calls} calls)`);
}
