import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Item } from "./vettly.ts";

export interface Row {
  source_id: string;
  data: Record<string, unknown>;
  updated_at: unknown;
  is_deleted: boolean;
}

/** What the mirror keeps between runs: the watermark of the last sync that finished. */
export interface State {
  watermark: string | null;
}

export const ENTITIES = [
  { name: "subject", file: "subjects.json", path: "/v1/subjects" },
  { name: "check", file: "checks.json", path: "/v1/checks" },
  { name: "report", file: "reports.json", path: "/v1/reports" },
] as const;

const STATE = "vettly-sync-state.json";

function writeAtomic(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

export function toRow(item: Item): Row {
  const { id, ...data } = item;
  return { source_id: String(id), data, updated_at: item.updated_at, is_deleted: false };
}

export function readMirror(dir: string, file: string): Map<string, Row> {
  const path = join(dir, file);
  if (!existsSync(path)) return new Map();
  return new Map((JSON.parse(readFileSync(path, "utf8")) as Row[]).map((r) => [r.source_id, r]));
}

export function writeMirror(dir: string, file: string, rows: Map<string, Row>): void {
  mkdirSync(dir, { recursive: true });
  const sorted = [...rows.values()].sort((a, b) => (a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0));
  writeAtomic(join(dir, file), `${JSON.stringify(sorted, null, 1)}\n`);
}

export function readState(dir: string): State {
  const path = join(dir, STATE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as State) : { watermark: null };
}

export function writeState(dir: string, state: State): void {
  mkdirSync(dir, { recursive: true });
  writeAtomic(join(dir, STATE), JSON.stringify(state));
}
