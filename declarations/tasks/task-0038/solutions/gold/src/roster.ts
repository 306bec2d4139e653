import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CrewRecord } from "./crewcall.ts";

/** One row of workers.json. */
export interface Row {
  source_id: string;
  data: Record<string, unknown>;
  updated_at: string;
  is_deleted: boolean;
}

/** One row of changes.json. */
export interface Change {
  source_id: string;
  change: "added" | "updated" | "removed";
}

/** What the next run needs to know about the last one. */
export interface SyncState {
  /** CrewCall's clock (X-CrewCall-Time) when the previous run started: the next run reads changes from here. */
  since: string | null;
}

const STATE_FILE = ".roster-state.json";

export function toRow(w: CrewRecord): Row {
  const { id, ...data } = w;
  return { source_id: String(id), data, updated_at: String(w.updated_at), is_deleted: false };
}

/** The later of two ISO 8601 instants (null counts as earliest). */
export function later(a: string | null, b: string): string {
  return a === null || Date.parse(b) > Date.parse(a) ? b : a;
}

function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

const bySourceId = <T extends { source_id: string }>(rows: T[]): T[] => rows.sort((a, b) => (a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0));

export function readCopy(dir: string): Map<string, Row> {
  const path = join(dir, "workers.json");
  const rows: Row[] = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : [];
  return new Map(rows.map((r) => [r.source_id, r]));
}

export function readState(dir: string): SyncState | null {
  const path = join(dir, STATE_FILE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as SyncState) : null;
}

/** Writes the copy, the run's changes and the state, the state last. */
export function writeAll(dir: string, copy: Map<string, Row>, changes: Change[], state: SyncState): void {
  mkdirSync(dir, { recursive: true });
  writeAtomic(join(dir, "workers.json"), `${JSON.stringify(bySourceId([...copy.values()]), null, 1)}\n`);
  writeAtomic(join(dir, "changes.json"), `${JSON.stringify(bySourceId(changes), null, 1)}\n`);
  writeAtomic(join(dir, STATE_FILE), `${JSON.stringify(state)}\n`);
}
