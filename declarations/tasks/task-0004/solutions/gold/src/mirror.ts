import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One row of a mirror file. */
export interface Row {
  source_id: string;
  data: Record<string, unknown>;
  updated_at: unknown;
  is_deleted: boolean;
}

/** A StaffLine record as a mirror row: every field but the id, stamped with `mod_ts`. */
export function toRow(record: Record<string, unknown>): Row {
  const { id, ...data } = record;
  return { source_id: String(id), data, updated_at: record.mod_ts, is_deleted: false };
}

export function readMirror(dir: string, file: string): Map<string, Row> {
  const path = join(dir, file);
  const rows: Row[] = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : [];
  return new Map(rows.map((r) => [r.source_id, r]));
}

export function writeMirror(dir: string, file: string, rows: Map<string, Row>): void {
  mkdirSync(dir, { recursive: true });
  const sorted = [...rows.values()].sort((a, b) => (a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0));
  writeFileSync(join(dir, file), JSON.stringify(sorted, null, 2));
}

/** What the next incremental run starts from. */
export interface SyncState {
  /** StaffLine's clock (`X-SL-Server-Time`, epoch ms) when the last successful run began. */
  last_sync_ms: number;
}

const STATE_FILE = ".staffline-sync.json";

export function readState(dir: string): SyncState | null {
  const path = join(dir, STATE_FILE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as SyncState) : null;
}

export function writeState(dir: string, state: SyncState): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, STATE_FILE), JSON.stringify(state));
}
