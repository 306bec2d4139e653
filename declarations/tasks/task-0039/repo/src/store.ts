import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The entities the ATS copies, and the file each lives in. */
export const FILES = { interview: "interviews.json", scorecard: "scorecards.json" } as const;
export type Entity = keyof typeof FILES;
export const ENTITIES = Object.keys(FILES) as Entity[];

/** One row of the ATS's copy. */
export interface Row {
  source_id: string;
  data: Record<string, unknown>;
  updated_at: number;
  is_deleted: boolean;
}

/** One line of the event journal: an event the relay applied. */
export interface JournalLine {
  event_id: string;
  type: string;
  source_id: string;
  updated_at: number;
}

/** A record as Interviewly serves it, turned into a row. */
export function toRow(record: Record<string, unknown>): Row {
  const { id, ...data } = record;
  return { source_id: String(id), data, updated_at: Number(record.updated_at), is_deleted: false };
}

function writeAtomic(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

/** The ATS's copy under OUTPUT_DIR: one file per entity, rows sorted by `source_id`. */
export class Store {
  private readonly dir: string;
  private readonly rows = new Map<Entity, Map<string, Row>>();

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true });
    for (const entity of ENTITIES) {
      const path = join(dir, FILES[entity]);
      const list: Row[] = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : [];
      this.rows.set(entity, new Map(list.map((r) => [r.source_id, r])));
    }
  }

  get(entity: Entity, id: string): Row | undefined {
    return this.rows.get(entity)!.get(id);
  }

  put(entity: Entity, row: Row): void {
    this.rows.get(entity)!.set(row.source_id, row);
  }

  /** Replaces an entity's rows wholesale (the back-fill). */
  replace(entity: Entity, rows: Row[]): void {
    this.rows.set(entity, new Map(rows.map((r) => [r.source_id, r])));
  }

  save(): void {
    for (const entity of ENTITIES) {
      const list = [...this.rows.get(entity)!.values()].sort((a, b) => (a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0));
      writeAtomic(join(this.dir, FILES[entity]), `${JSON.stringify(list, null, 1)}\n`);
    }
  }

  journal(line: JournalLine): void {
    appendFileSync(join(this.dir, "event_journal.jsonl"), `${JSON.stringify(line)}\n`);
  }

  /** Starts an empty journal unless one is there (the listener appends to it). */
  ensureJournal(): void {
    const path = join(this.dir, "event_journal.jsonl");
    if (!existsSync(path)) writeFileSync(path, "");
  }

  readState<T>(fallback: T): T {
    const path = join(this.dir, "relay-state.json");
    return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as T) : fallback;
  }

  writeState(state: unknown): void {
    writeAtomic(join(this.dir, "relay-state.json"), `${JSON.stringify(state)}\n`);
  }
}
