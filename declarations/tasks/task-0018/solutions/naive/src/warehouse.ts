import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One row of a warehouse file. */
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
 * A TalentLoop record as a warehouse row. TalentLoop keeps a deleted record
 * with `deleted: true` (API 2.1), so the flag is what marks a row removed;
 * a removed row keeps no personal data.
 */
export function toRow(record: Record<string, unknown>): Row {
  const { id, deleted, ...data } = record;
  const removed = deleted === true;
  return { source_id: String(id), data: removed ? {} : data, updated_at: typeof record.updated_at === "string" ? record.updated_at : null, is_deleted: removed };
}

function time(v: string | null): number {
  const t = v === null ? Number.NaN : Date.parse(v);
  return Number.isFinite(t) ? t : Number.NEGATIVE_INFINITY;
}

/** The warehouse files under OUTPUT_DIR, which are also the connector's state. */
export class Warehouse {
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
   * Takes a version of a live record unless the warehouse holds the same or a
   * newer one. A removed record stays removed: TalentLoop never brings an id
   * back, so a version arriving after its delete (events come out of order) is stale.
   */
  apply(entity: Entity, row: Row): boolean {
    const have = this.rows[entity].get(row.source_id);
    if (have?.is_deleted) return false;
    if (have && time(row.updated_at) <= time(have.updated_at)) return false;
    this.rows[entity].set(row.source_id, row);
    return true;
  }

  /**
   * Marks a record removed and drops its personal data. A delete for a record
   * the warehouse never held is kept too, so that its create, should it arrive
   * later, does not bring it back.
   */
  remove(entity: Entity, id: string): boolean {
    const have = this.rows[entity].get(id);
    if (have?.is_deleted) return false;
    this.rows[entity].set(id, { source_id: id, data: {}, updated_at: have?.updated_at ?? null, is_deleted: true });
    return true;
  }

  reset(entity: Entity): void {
    this.rows[entity].clear();
  }

  /** Writes every file, sorted by `source_id`, each replaced atomically. */
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
