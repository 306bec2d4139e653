/**
 * @module leaks
 * Looks for the original skin's distinctive strings in a folder of files:
 * a re-skinned workspace must contain none. Symbolic links are not
 * followed, git's object store is skipped (its files are compressed), and
 * binary files are skipped.
 */
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export interface Leak {
  file: string;
  line: number;
  found: string;
}

function* filesUnder(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    const st = lstatSync(full);
    if (st.isDirectory()) {
      if (name !== ".git") yield* filesUnder(full);
    } else if (st.isFile()) yield full;
  }
}

/** Every match of `pattern` in the text files under `dir` (at most `limit`), and how many files were read. */
export function scanForLeaks(dir: string, pattern: RegExp, limit = 200): { leaks: Leak[]; files: number } {
  const leaks: Leak[] = [];
  let files = 0;
  const re = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
  for (const file of filesUnder(dir)) {
    const bytes = readFileSync(file);
    if (bytes.includes(0)) continue;
    files++;
    const rel = relative(dir, file);
    // Line 0 is the file's own path.
    [rel, ...bytes.toString("utf8").split("\n")].forEach((text, line) => {
      for (const hit of text.matchAll(re)) if (leaks.length < limit) leaks.push({ file: rel, line, found: hit[0] });
    });
  }
  return { leaks, files };
}
