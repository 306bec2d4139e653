import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One row of mapping.json. */
export interface MappingRow {
  hirewire_id: number;
  talentforge_id: string;
  action: "matched" | "created";
}

/** One row of notes.json. */
export interface NoteRow {
  hirewire_id: number;
  talentforge_id: string;
  note_id: string;
}

/** What the migration remembers between runs, by HireWire id: the TalentForge records it created and the notes it wrote. */
export interface State {
  created: Record<string, string>;
  notes?: Record<string, string>;
}

const STATE_FILE = ".migration-state.json";

function writeAtomic(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

export function readState(dir: string): State {
  const path = join(dir, STATE_FILE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as State) : { created: {} };
}

export function writeState(dir: string, state: State): void {
  mkdirSync(dir, { recursive: true });
  writeAtomic(join(dir, STATE_FILE), JSON.stringify(state));
}

export function readJson<T>(dir: string, file: string): T | null {
  const path = join(dir, file);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as T) : null;
}

export function writeJson(dir: string, file: string, rows: unknown[]): void {
  mkdirSync(dir, { recursive: true });
  writeAtomic(join(dir, file), JSON.stringify(rows, null, 2));
}
