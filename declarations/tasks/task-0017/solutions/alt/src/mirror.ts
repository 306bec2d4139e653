import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One row of a hub file. */
export interface Row {
  source_id: string;
  data: Record<string, unknown>;
  updated_at: string | null;
  is_deleted: boolean;
}

export type Entity = "candidate" | "application";
export const ENTITIES: Entity[] = ["candidate", "application"];
export const FILES: Record<Entity, string> = { candidate: "candidates.json", application: "applications.json" };
export const PATHS: Record<Entity, string> = { candidate: "/v1/candidates", application: "/v1/applications" };

/**
 * A live TalentLoop record as a hub row. TalentLoop's records carry no
 * deletion flag, whatever its changelog says: a deleted record drops out of
 * the lists and answers 410 Gone when read by id.
 */
export function toRow(record: Record<string, unknown>): Row {
  const { id, ...data } = record;
  return { source_id: String(id), data, updated_at: typeof record.updated_at === "string" ? record.updated_at : null, is_deleted: false };
}

function time(v: string | null): number {
  const t = v === null ? Number.NaN : Date.parse(v);
  return Number.isFinite(t) ? t : Number.NEGATIVE_INFINITY;
}

/** The hub files under OUTPUT_DIR (`candidates.json`, `applications.json`), which are also its state. */
export class Mirror {
  private readonly dir: string;
  readonly rows: Record<Entity, Map<string, Row>>;

  constructor(dir: string) {
    this.dir = dir;
    const load = (entity: Entity) => {
      const path = join(dir, FILES[entity]);
      const rows: Row[] = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : [];
      return new Map(rows.map((r) => [r.source_id, r]));
    };
    this.rows = { candidate: load("candidate"), application: load("application") };
  }

  /**
   * Takes a version of a record unless the hub already holds a newer one, or
   * holds the record as removed: events arrive late, twice and out of order,
   * and TalentLoop never brings a removed record back.
   */
  apply(entity: Entity, row: Row): boolean {
    const have = this.rows[entity].get(row.source_id);
    if (have?.is_deleted) return false;
    if (have && time(row.updated_at) < time(have.updated_at)) return false;
    this.rows[entity].set(row.source_id, row);
    return true;
  }

  /** Marks a record removed, keeping its last known row; a removal is final. */
  remove(entity: Entity, id: string): void {
    const have = this.rows[entity].get(id);
    this.rows[entity].set(id, { source_id: id, data: have?.data ?? {}, updated_at: have?.updated_at ?? null, is_deleted: true });
  }

  reset(entity: Entity): void {
    this.rows[entity].clear();
  }

  summary(): string {
    return ENTITIES.map((e) => {
      const rows = [...this.rows[e].values()];
      return `${e}s: ${rows.length} rows, ${rows.filter((r) => r.is_deleted).length} removed`;
    }).join("; ");
  }

  /** Writes both files sorted by `source_id`, each replaced atomically. */
  save(): void {
    mkdirSync(this.dir, { recursive: true });
    for (const entity of ENTITIES) {
      const rows = [...this.rows[entity].values()].sort((a, b) => (a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0));
      const path = join(this.dir, FILES[entity]);
      writeFileSync(`${path}.tmp`, JSON.stringify(rows, null, 2));
      renameSync(`${path}.tmp`, path);
    }
  }
}
