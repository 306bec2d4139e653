import { readFileSync } from "node:fs";

/** One line of the desk's sheet. */
export interface SheetLine {
  ref: string;
  /** As typed by the desk. */
  typedId: string;
  /** `YYYY-MM-DD HH:MM` in the interview's own zone. */
  newStart: string;
}

/** Reads `input/reschedules.csv` (a header line, comma-separated, no quoted fields). */
export function readSheet(path: string): SheetLine[] {
  const lines = readFileSync(path, "utf8")
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .filter((l) => l.trim());
  const header = lines[0].split(",").map((h) => h.trim());
  const col = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`${path}: no ${name} column`);
    return i;
  };
  const [ref, id, start] = [col("ref"), col("interview_id"), col("new_start")];
  return lines.slice(1).map((l) => {
    const cells = l.split(",");
    return { ref: cells[ref].trim(), typedId: cells[id], newStart: cells[start].trim() };
  });
}

/** An id as Interviewly spells it: lower case, no stray spaces. */
export const canonicalId = (typed: string): string => typed.trim().toLowerCase();
