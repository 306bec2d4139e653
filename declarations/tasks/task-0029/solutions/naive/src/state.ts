import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** What the rollup keeps of an application. */
export interface AppRow {
  jobId: number;
  candidateId: number;
  stage: string;
  disqualified: boolean;
  updatedAt: number;
}

/** The job's memory between nights: the exported records and where the next exports start. */
export interface State {
  /** Snapshot moment of the previous run's exports: the next exports and the deletions feed start after it. */
  since: number | null;
  applications: Record<string, AppRow>;
  /** Candidate id -> source. */
  candidates: Record<string, string>;
}

const PATH = "state/rollup-state.json";

export function loadState(): State {
  try {
    return JSON.parse(readFileSync(PATH, "utf8")) as State;
  } catch {
    return { since: null, applications: {}, candidates: {} };
  }
}

export function saveState(s: State): void {
  mkdirSync(dirname(PATH), { recursive: true });
  writeFileSync(`${PATH}.tmp`, JSON.stringify(s));
  renameSync(`${PATH}.tmp`, PATH);
}
