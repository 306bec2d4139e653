import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** One line of `changes.jsonl`: a check as a run found it, new or changed. */
export interface ChangeLine {
  check_id: string;
  subject_id: string;
  type: string;
  status: string;
  updated_at: string;
}

export const CHANGES = "changes.jsonl";

/** The lines already in the feed, oldest first. */
export function readChanges(outputDir: string): ChangeLine[] {
  const path = join(outputDir, CHANGES);
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as ChangeLine);
}

/** Appends lines to the feed; the lines already there are never rewritten. */
export function appendChanges(outputDir: string, lines: ChangeLine[]): void {
  mkdirSync(outputDir, { recursive: true });
  if (lines.length) appendFileSync(join(outputDir, CHANGES), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
}
