import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CrewRecord } from "./crewcall.ts";

/** What the job knows about one person on the roster. */
export interface Person {
  worker_id: string;
  onboarding_status: string;
  primary_role: string;
}

/** One cell of census.json. */
export interface Cell {
  onboarding_status: string;
  primary_role: string;
  workers: number;
}

/** The job's memory between runs. */
export interface State {
  /** The next run reads what changed from here (CrewCall's clock). */
  since: string | null;
  /** The roster, by worker number. */
  people: Record<string, Person>;
}

const STATE_FILE = ".census-state.json";

/**
 * Who a worker is for the census: CrewCall's worker number, as CrewCall counts (and invoices) worker
 * records. Contact details change and are not identities.
 */
export function personKey(w: CrewRecord): string {
  return String(w.id);
}

export function toPerson(w: CrewRecord): Person {
  return { worker_id: String(w.id), onboarding_status: String(w.onboarding_status), primary_role: String(w.primary_role) };
}

export function readState(dir: string): State {
  const path = join(dir, STATE_FILE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as State) : { since: null, people: {} };
}

/** The census of the roster: one cell per (onboarding status, role) with at least one person. */
export function census(people: Record<string, Person>): Cell[] {
  const counts = new Map<string, Cell>();
  for (const p of Object.values(people)) {
    const k = `${p.onboarding_status}\u0000${p.primary_role}`;
    const cell = counts.get(k) ?? { onboarding_status: p.onboarding_status, primary_role: p.primary_role, workers: 0 };
    cell.workers += 1;
    counts.set(k, cell);
  }
  return [...counts.values()].sort((a, b) => a.onboarding_status.localeCompare(b.onboarding_status) || a.primary_role.localeCompare(b.primary_role));
}

function writeAtomic(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

/** Writes census.json, then the state. */
export function writeAll(dir: string, state: State): void {
  mkdirSync(dir, { recursive: true });
  writeAtomic(join(dir, "census.json"), `${JSON.stringify(census(state.people), null, 1)}\n`);
  writeAtomic(join(dir, STATE_FILE), `${JSON.stringify(state)}\n`);
}
