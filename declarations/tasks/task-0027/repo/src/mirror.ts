import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One mirror row: the record's fields (all but its id), its `modified_at`, and whether Bullpen deleted it. */
export interface Row {
  source_id: string;
  data: Record<string, unknown>;
  updated_at: unknown;
  is_deleted: boolean;
}

export function toRow(record: Record<string, unknown>): Row {
  const { id, ...data } = record;
  return { source_id: String(id), data, updated_at: record.modified_at, is_deleted: false };
}

function writeAtomic(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

export function readMirror(dir: string, file: string): Map<string, Row> {
  const path = join(dir, file);
  if (!existsSync(path)) return new Map();
  return new Map((JSON.parse(readFileSync(path, "utf8")) as Row[]).map((r) => [r.source_id, r]));
}

/** Writes a mirror file, rows sorted by `source_id`. */
export function writeMirror(dir: string, file: string, rows: Map<string, Row>): void {
  mkdirSync(dir, { recursive: true });
  const sorted = [...rows.values()].sort((a, b) => (a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0));
  writeAtomic(join(dir, file), `${JSON.stringify(sorted, null, 1)}\n`);
}

export function readJson<T>(dir: string, file: string): T | null {
  const path = join(dir, file);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as T) : null;
}

export function writeJson(dir: string, file: string, value: unknown): void {
  mkdirSync(dir, { recursive: true });
  writeAtomic(join(dir, file), `${JSON.stringify(value, null, 1)}\n`);
}
