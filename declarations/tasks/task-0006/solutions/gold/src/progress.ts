import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Candidate } from "./globalhire.ts";
import { writeAtomic } from "./mirror.ts";

/** Where a back-fill stands: the next offset to read and the newest stamp seen. */
interface Cursor {
  nextOffset: number;
  watermark: string | null;
}

/**
 * Back-fill progress under OUTPUT_DIR/.backfill: every page read is written
 * (atomically) to its own file before the cursor moves past it, so a run that
 * crashed or gave up resumes at the first page it had not stored. GlobalHire
 * lists candidates in creation order and keeps deleted ones (archived), so
 * offsets of pages already read do not move between runs.
 */
export class BackfillProgress {
  private readonly dir: string;

  constructor(outputDir: string) {
    this.dir = join(outputDir, ".backfill");
  }

  /** The stored cursor, or a fresh one when no back-fill is in flight. */
  cursor(): Cursor {
    const path = join(this.dir, "cursor.json");
    return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Cursor) : { nextOffset: 0, watermark: null };
  }

  /** Stores one page, then moves the cursor past it. */
  savePage(offset: number, items: Candidate[], next: Cursor): void {
    mkdirSync(this.dir, { recursive: true });
    writeAtomic(join(this.dir, `page-${String(offset).padStart(9, "0")}.json`), JSON.stringify(items));
    writeAtomic(join(this.dir, "cursor.json"), JSON.stringify(next));
  }

  /** Every candidate stored by this back-fill so far, in page order. */
  stored(): Candidate[] {
    if (!existsSync(this.dir)) return [];
    const pages = readdirSync(this.dir)
      .filter((f) => /^page-\d+\.json$/.test(f))
      .sort();
    return pages.flatMap((f) => JSON.parse(readFileSync(join(this.dir, f), "utf8")) as Candidate[]);
  }

  /** The back-fill is complete and the mirror written: forget the progress. */
  clear(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
