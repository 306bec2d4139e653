import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** Reads a JSON state file of ours under OUTPUT_DIR, or the fallback when there is none yet. */
export function readState<T>(outputDir: string, name: string, fallback: T): T {
  const path = join(outputDir, name);
  if (!existsSync(path)) return fallback;
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

/** Writes a JSON file atomically (a crash leaves the old or the new copy, never half of one). */
export function writeJson(outputDir: string, name: string, value: unknown): void {
  const path = join(outputDir, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}
