import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CrewRecord } from "./crewcall.ts";

/** One row of a mirror file. */
export interface Row {
  source_id: string;
  data: Record<string, unknown>;
  updated_at: string;
  is_deleted: boolean;
}

export function toRow(r: CrewRecord): Row {
  const { id, ...data } = r;
  return { source_id: String(id), data, updated_at: r.updated_at, is_deleted: false };
}

/** Writes a file so that a reader never sees half of it. */
export function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

export function writeMirror(dir: string, file: string, rows: Map<string, Row>): void {
  mkdirSync(dir, { recursive: true });
  const sorted = [...rows.values()].sort((a, b) => (a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0));
  writeAtomic(join(dir, file), `${JSON.stringify(sorted, null, 1)}\n`);
}

export function readMirror(dir: string, file: string): Map<string, Row> {
  const path = join(dir, file);
  const rows: Row[] = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : [];
  return new Map(rows.map((r) => [r.source_id, r]));
}
