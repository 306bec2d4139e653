import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeAtomic } from "./mirror.ts";

/** Where one list's crawl stands. */
export interface ListProgress {
  /** Offset of the next page to read. */
  offset: number;
  done: boolean;
}

/** A back-fill in progress, kept between runs so a stopped one is continued. */
export interface BackfillState {
  /** CrewCall's clock when the back-fill began: changes from then on are caught up when it spans runs. */
  startedAt: string | null;
  /** Whether a later run has continued it. */
  resumed: boolean;
  finished: boolean;
  lists: Record<string, ListProgress>;
}

const STATE_FILE = ".backfill-state.json";

export function readState(dir: string): BackfillState | null {
  const path = join(dir, STATE_FILE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as BackfillState) : null;
}

export function writeState(dir: string, state: BackfillState): void {
  writeAtomic(join(dir, STATE_FILE), `${JSON.stringify(state)}\n`);
}
