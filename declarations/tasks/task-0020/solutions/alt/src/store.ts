import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One row of a mirror file. */
export interface Row {
  source_id: string;
  data: Record<string, unknown>;
  updated_at: string | null;
  is_deleted: boolean;
}

/** One processed TalentLoop event, and how it reached us. */
export interface LedgerRow {
  event_id: string;
  type: string;
  source_id: string;
  via: "webhook" | "dead_letter";
}

export type Entity = "candidate" | "application";
export const ENTITIES: Entity[] = ["candidate", "application"];
export const FILES: Record<Entity, string> = { candidate: "candidates.json", application: "applications.json" };

interface StateFile {
  mirror: Record<Entity, Record<string, Row>>;
  ledger: LedgerRow[];
}

const STATE = ".talentloop-state.json";

function time(v: unknown): number {
  const t = typeof v === "string" ? Date.parse(v) : NaN;
  return Number.isFinite(t) ? t : -Infinity;
}

/**
 * The mirror and the event ledger, persisted together in one file that is
 * replaced atomically, so an event is either fully applied and recorded or not at all.
 */
export class Store {
  private readonly dir: string;
  readonly mirror: Record<Entity, Map<string, Row>>;
  readonly ledger: LedgerRow[];
  private readonly processed: Set<string>;

  constructor(dir: string) {
    this.dir = dir;
    const path = join(dir, STATE);
    const saved: StateFile = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : { mirror: { candidate: {}, application: {} }, ledger: [] };
    this.mirror = { candidate: new Map(Object.entries(saved.mirror.candidate ?? {})), application: new Map(Object.entries(saved.mirror.application ?? {})) };
    this.ledger = saved.ledger ?? [];
    this.processed = new Set(this.ledger.map((r) => r.event_id));
  }

  hasProcessed(eventId: string): boolean {
    return this.processed.has(eventId);
  }

  record(row: LedgerRow): void {
    this.processed.add(row.event_id);
    this.ledger.push(row);
  }

  /**
   * Applies a record as TalentLoop serves it. Deletes are final (TalentLoop never
   * brings a deleted id back), and nothing older than what the mirror holds wins.
   */
  upsert(entity: Entity, record: Record<string, unknown>): boolean {
    const id = String(record.id);
    const have = this.mirror[entity].get(id);
    if (have?.is_deleted) return false;
    if (have && time(record.updated_at) <= time(have.updated_at)) return false;
    const { id: _id, ...data } = record;
    this.mirror[entity].set(id, { source_id: id, data, updated_at: (record.updated_at as string) ?? null, is_deleted: false });
    return true;
  }

  remove(entity: Entity, id: string): boolean {
    const have = this.mirror[entity].get(id);
    if (have?.is_deleted) return false;
    this.mirror[entity].set(id, have ? { ...have, is_deleted: true } : { source_id: id, data: {}, updated_at: null, is_deleted: true });
    return true;
  }

  reset(entity: Entity): void {
    this.mirror[entity].clear();
  }

  save(): void {
    mkdirSync(this.dir, { recursive: true });
    const state: StateFile = {
      mirror: { candidate: Object.fromEntries(this.mirror.candidate), application: Object.fromEntries(this.mirror.application) },
      ledger: this.ledger,
    };
    const tmp = join(this.dir, `${STATE}.tmp`);
    writeFileSync(tmp, JSON.stringify(state));
    renameSync(tmp, join(this.dir, STATE));
  }

  dump(): void {
    mkdirSync(this.dir, { recursive: true });
    for (const entity of ENTITIES) {
      const rows = [...this.mirror[entity].values()].sort((a, b) => (a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0));
      writeFileSync(join(this.dir, FILES[entity]), JSON.stringify(rows, null, 2));
    }
    writeFileSync(join(this.dir, "events.json"), JSON.stringify(this.ledger, null, 2));
  }
}
