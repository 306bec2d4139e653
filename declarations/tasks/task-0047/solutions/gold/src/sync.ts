/**
 * `sync`: employees and assignments into mirror files, deletions from the
 * deletions list, incrementally after the first run (watermarks on PayGrade's
 * own clock, compared as instants).
 */
import type { Config } from "./config.ts";
import { type Fields, PayGrade } from "./paygrade.ts";
import { type Row, readJson, sortedRows, utc, writeJson } from "./mirror.ts";

const STATE = "paygrade-state.json";
const ENTITIES = [
  { name: "employee", op: "ListEmployees", id: "employee_id", file: "employees.json", ints: [] as string[] },
  { name: "assignment", op: "ListAssignments", id: "assignment_id", file: "assignments.json", ints: ["pay_rate", "bill_rate"] },
];

interface State {
  watermarks: Record<string, string>;
}

function later(a: string | undefined, b: string): string {
  return a === undefined || Date.parse(b) > Date.parse(a) ? b : a;
}

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
  const state = readJson<State>(config.outputDir, STATE, { watermarks: {} });
  const next: State = { watermarks: { ...state.watermarks } };
  const mirrors = new Map<string, Map<string, Row>>();
  for (const e of ENTITIES) {
    const rows = new Map(readJson<Row[]>(config.outputDir, e.file, []).map((r) => [r.source_id, r]));
    const since = state.watermarks[e.name];
    for (const f of await pg.list(e.op, e.name, { changedSince: since })) {
      const row = toRow(f, e.id, e.ints);
      rows.set(row.source_id, row);
      next.watermarks[e.name] = later(next.watermarks[e.name], row.updated_at);
    }
    mirrors.set(e.name, rows);
  }
  for (const d of await pg.list("ListDeletions", "deletion", { changedSince: state.watermarks.deletion })) {
    const deletedAt = utc(String(d.deleted_at));
    next.watermarks.deletion = later(next.watermarks.deletion, deletedAt);
    const rows = mirrors.get(String(d.record_type));
    if (!rows) continue;
    const id = String(d.id);
    rows.set(id, { source_id: id, data: rows.get(id)?.data ?? {}, updated_at: deletedAt, is_deleted: true });
  }
  for (const e of ENTITIES) writeJson(config.outputDir, e.file, sortedRows(mirrors.get(e.name)!));
  writeJson(config.outputDir, STATE, next);
  console.log(`sync: ${ENTITIES.map((e) => `${mirrors.get(e.name)!.size} ${e.name}s`).join(", ")} (${pg.calls} calls)`);
}
