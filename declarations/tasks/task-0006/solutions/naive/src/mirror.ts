import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Candidate } from "./globalhire.ts";

/** One row of candidates.json. */
export interface Row {
  source_id: string;
  data: Record<string, unknown>;
  updated_at: string;
  is_deleted: boolean;
}

/** What the incremental run needs to know about the last successful run. */
export interface SyncState {
  /** Newest `updated_at` mirrored so far, as a UTC ISO instant. */
  watermark: string | null;
}

export const MIRROR_FILE = "candidates.json";
const STATE_FILE = ".sync-state.json";

export function toRow(c: Candidate): Row {
  const { id, ...data } = c;
  return { source_id: String(id), data, updated_at: c.updated_at, is_deleted: c.archived === true };
}

/** Milliseconds since the epoch of a GlobalHire timestamp. */
export function instant(ts: string): number {
  const ms = Date.parse(ts);
  if (Number.isNaN(ms)) throw new Error(`unreadable timestamp ${JSON.stringify(ts)}`);
  return ms;
}

/** Writes a file so that a reader never sees half of it. */
export function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

export function readMirror(dir: string): Map<string, Row> {
  const path = join(dir, MIRROR_FILE);
  const rows: Row[] = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : [];
  return new Map(rows.map((r) => [r.source_id, r]));
}

export function writeMirror(dir: string, rows: Map<string, Row>): void {
  mkdirSync(dir, { recursive: true });
  const sorted = [...rows.values()].sort((a, b) => (a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0));
  writeAtomic(join(dir, MIRROR_FILE), JSON.stringify(sorted, null, 2));
}

export function readState(dir: string): SyncState {
  const path = join(dir, STATE_FILE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as SyncState) : { watermark: null };
}

export function writeState(dir: string, state: SyncState): void {
  mkdirSync(dir, { recursive: true });
  writeAtomic(join(dir, STATE_FILE), JSON.stringify(state));
}

/** The later of a watermark and a row's stamp, compared as instants. */
export function later(watermark: string | null, ts: string): string {
  return watermark === null || instant(ts) > instant(watermark) ? new Date(instant(ts)).toISOString() : watermark;
}
