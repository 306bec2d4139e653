import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface Row {
  source_id: string;
  data: Record<string, unknown>;
  updated_at: string | null;
  is_deleted: boolean;
}

export interface LedgerRow {
  event_id: string;
  type: string;
  source_id: string;
}

export type Entity = "candidate" | "application";
export const ENTITIES: Entity[] = ["candidate", "application"];
const FILES: Record<Entity, string> = { candidate: "candidates.json", application: "applications.json" };

interface State {
  mirror: Record<Entity, Record<string, Row>>;
  ledger: LedgerRow[];
  watermark: string | null;
}

const STATE = "state.json";

export function load(dir: string): State {
  const path = join(dir, STATE);
  return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : { mirror: { candidate: {}, application: {} }, ledger: [], watermark: null };
}

export function save(dir: string, state: State): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, STATE), JSON.stringify(state));
}

/** Stores a record as the API or an event returned it. */
export function put(state: State, entity: Entity, record: Record<string, unknown>): void {
  const { id, deleted, ...data } = record;
  state.mirror[entity][String(id)] = { source_id: String(id), data, updated_at: (record.updated_at as string) ?? null, is_deleted: deleted === true };
  if (typeof record.updated_at === "string" && (!state.watermark || record.updated_at > state.watermark)) state.watermark = record.updated_at;
}

export function markDeleted(state: State, entity: Entity, id: string): void {
  const row = state.mirror[entity][id];
  state.mirror[entity][id] = row ? { ...row, is_deleted: true } : { source_id: id, data: {}, updated_at: null, is_deleted: true };
}

export function dump(dir: string, state: State): void {
  mkdirSync(dir, { recursive: true });
  for (const entity of ENTITIES) {
    const rows = Object.values(state.mirror[entity]).sort((a, b) => (a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0));
    writeFileSync(join(dir, FILES[entity]), JSON.stringify(rows, null, 2));
  }
  writeFileSync(join(dir, "events.json"), JSON.stringify(state.ledger, null, 2));
}
