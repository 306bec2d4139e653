/** Mirror rows and the files they live in under OUTPUT_DIR. */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface Row {
  source_id: string;
  data: Record<string, unknown>;
  updated_at: string;
  is_deleted: boolean;
}

/** An instant in UTC (`...Z`), whatever offset PayGrade stamped it with. */
export function utc(stamp: string): string {
  const ms = Date.parse(stamp);
  if (Number.isNaN(ms)) throw new Error(`not a timestamp: ${stamp}`);
  return new Date(ms).toISOString();
}

export function readJson<T>(dir: string, file: string, fallback: T): T {
  const path = join(dir, file);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as T) : fallback;
}

/** Writes a file whole or not at all (a temporary file renamed over it). */
export function writeJson(dir: string, file: string, value: unknown): void {
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${file}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(tmp, join(dir, file));
}

export function sortedRows(rows: Map<string, Row>): Row[] {
  return [...rows.values()].sort((a, b) => (a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0));
}
