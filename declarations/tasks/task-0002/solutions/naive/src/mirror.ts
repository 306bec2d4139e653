import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One row of a mirror file. */
export interface Row {
  source_id: string;
  data: Record<string, unknown>;
  updated_at: unknown;
  is_deleted: boolean;
}

/** Sync state kept between runs. */
export interface State {
  /** Newest candidate updated_at seen, as TalentForge wrote it. */
  watermark: string | null;
}

export function toRow(record: Record<string, unknown>): Row {
  const { id, ...data } = record;
  return { source_id: String(id), data, updated_at: record.updated_at, is_deleted: record.is_deleted === true };
}

export function readMirror(dir: string, file: string): Map<string, Row> {
  const path = join(dir, file);
  const rows: Row[] = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : [];
  return new Map(rows.map((r) => [r.source_id, r]));
}

function writeAtomic(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

export function writeMirror(dir: string, file: string, rows: Map<string, Row>): void {
  mkdirSync(dir, { recursive: true });
  const sorted = [...rows.values()].sort((a, b) => (a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0));
  writeAtomic(join(dir, file), JSON.stringify(sorted, null, 2));
}

export function readState(dir: string): State {
  const path = join(dir, ".sync-state.json");
  return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : { watermark: null };
}

export function writeState(dir: string, state: State): void {
  mkdirSync(dir, { recursive: true });
  writeAtomic(join(dir, ".sync-state.json"), JSON.stringify(state));
}
