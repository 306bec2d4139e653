import type { StateRecord } from "../data/generate.ts";
import { PageItemsCache } from "../protocol/page-items-cache.ts";
import { RowJsonCache } from "../protocol/row-json-cache.ts";
import type { PageRow } from "./page-row.ts";
import { type MirrorRow, RecordMirror } from "./record-mirror.ts";

/** A record row as stored. */
export interface RecordRow {
  entity: string;
  id: string;
  seq: number;
  parent: string | null;
  data: Record<string, unknown>;
  updatedMs: number;
  deletedMs: number | null;
  /** Lists show records from this request sequence number on. */
  visibleAt: number;
  /** What lists show until `visibleAt` (the pre-update values), or null to hide the record. */
  listedData: Record<string, unknown> | null;
  version: number;
}

type Row = Record<string, SqlStorageValue>;

const INSERT_BATCH = 1000;

/** A state serialised for insertion: JSON arrays of rows, one per insert statement, and the rows as the mirror holds them. */
export interface PackedState {
  batches: string[];
  /** The rows as stored (never mutated: a store copies them). */
  rows: readonly MirrorRow[];
}

export function packState(records: StateRecord[]): PackedState {
  const rows = records.map((r) => toMirror({ ...r, visibleAt: 0, listedData: null, version: 1 }));
  const batches: string[] = [];
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    batches.push(JSON.stringify(rows.slice(i, i + INSERT_BATCH).map((r) => [r.entity, r.id, r.seq, r.parent, r.text, r.updatedMs, r.deletedMs])));
  }
  return { batches, rows };
}

/** A stored row as the mirror holds it (values still as their JSON text). */
function mirrorRowOf(r: Row): MirrorRow {
  return {
    entity: r.entity as string,
    id: r.id as string,
    seq: r.seq as number,
    parent: (r.parent as string | null) ?? null,
    text: r.data as string,
    updatedMs: r.updated_ms as number,
    deletedMs: (r.deleted_ms as number | null) ?? null,
    visibleAt: r.visible_at as number,
    listedText: (r.listed_data as string | null) ?? null,
    version: r.version as number,
  };
}

/** Filters of a list query. */
export interface ListFilter {
  entity: string;
  /** Only children of this parent (subresources). */
  parent?: string;
  /** Include deleted rows (delete-flag vendors). */
  includeDeleted: boolean;
  /** Only rows visible to a request with this sequence number. */
  visibleTo: number;
  /** Incremental watermark on updated_ms. */
  since?: { ms: number; inclusive: boolean };
  /** A time window, `[fromMs, toMs)` on one timestamp field of the data; such lists are served in that field's order. */
  range?: { field: string; fromMs: number; toMs: number };
}

/** The JSON path of a data field, for SQLite's `->>`. */
const fieldPath = (field: string) => `$.${JSON.stringify(field)}`;

function toMirror(r: RecordRow): MirrorRow {
  return {
    entity: r.entity,
    id: r.id,
    seq: r.seq,
    parent: r.parent,
    text: JSON.stringify(r.data),
    updatedMs: r.updatedMs,
    deletedMs: r.deletedMs,
    visibleAt: r.visibleAt,
    listedText: r.listedData ? JSON.stringify(r.listedData) : null,
    version: r.version,
  };
}

function fromMirror(r: MirrorRow): RecordRow {
  return {
    entity: r.entity,
    id: r.id,
    seq: r.seq,
    parent: r.parent,
    data: JSON.parse(r.text),
    updatedMs: r.updatedMs,
    deletedMs: r.deletedMs,
    visibleAt: r.visibleAt,
    listedData: r.listedText ? JSON.parse(r.listedText) : null,
    version: r.version,
  };
}

/** The state of a store's records at one moment: a mirror (replaced when rows are rewritten in bulk) and the store version. */
export interface RecordsKey {
  mirror: object;
  version: number;
}

/** Whether two keys name the same records (nothing written in between). */
export function sameRecords(a: RecordsKey | null | undefined, b: RecordsKey): boolean {
  return a?.mirror === b.mirror && a.version === b.version;
}

/** A filter's identity for the caches of totals and selected rows. */
function filterKey(f: ListFilter): string {
  return `${f.entity}|${f.parent ?? ""}|${f.includeDeleted}|${f.since?.ms ?? ""}|${f.since?.inclusive ?? ""}|${f.range ? `${f.range.field}|${f.range.fromMs}|${f.range.toMs}` : ""}`;
}

/**
 * Typed access to the records table. Writes go to SQLite and to an in-memory
 * mirror of every record; reads of single records and of lists without a
 * time window are served from the mirror, time windows (ordered by a field
 * of the data, as SQLite compares it) and the rarer reads from SQL. Beside
 * the mirror sit the store's read caches, keyed by record and store
 * versions so a write makes them miss: the JSON each row is served as
 * ({@link rowJson}) and the joined items of list pages ({@link pageItems}).
 * A new store (a recreate builds a new engine) starts them empty.
 */
export class RecordStore {
  /** Served JSON of rows, per row version and view. */
  readonly rowJson = new RowJsonCache();
  /** Joined items of list pages, per store version. */
  readonly pageItems = new PageItemsCache();
  /** Bumped by every change, so derived values (the state hash, counts) can be cached. */
  version = 0;
  /** Highest request sequence number up to which some list still shows an older view. */
  private lagHorizon = 0;
  /** List totals by filter, valid for `version` once no listing lags. */
  private readonly counts = new Map<string, { version: number; n: number }>();
  /** Every record in memory, loaded on first use and dropped when rows move in bulk. */
  private loaded: RecordMirror | null = null;

  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  /**
   * Replaces every record. Rows travel as one JSON array per batch and are
   * unpacked by SQLite's json_each: the runtime allows few bound parameters
   * per statement, and one statement per row is several times slower.
   */
  replaceAll(records: StateRecord[] | PackedState): void {
    const packed = Array.isArray(records) ? packState(records) : records;
    this.version += 1;
    this.lagHorizon = 0;
    this.loaded = new RecordMirror(packed.rows.map((r) => ({ ...r })));
    this.sql.exec("DELETE FROM records");
    this.sql.exec("DELETE FROM meta WHERE key LIKE 'reserved:%'");
    for (const batch of packed.batches) {
      this.sql.exec(
        `INSERT INTO records (entity, id, seq, parent, data, updated_ms, deleted_ms)
         SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6 FROM json_each(?)`,
        batch,
      );
    }
  }

  /**
   * Takes over the in-memory state of the store this one replaces, when the
   * records did not change in between (a new engine over the same rows).
   */
  adopt(previous: RecordStore): void {
    this.version = previous.version;
    this.lagHorizon = previous.lagHorizon;
    this.loaded = previous.loaded;
  }

  /** Identifies the records' current state: equal keys (see {@link sameRecords}) mean equal records. */
  stateKey(): RecordsKey {
    return { mirror: this.mirror(), version: this.version };
  }

  private mirror(): RecordMirror {
    this.loaded ??= new RecordMirror(this.sql.exec("SELECT entity, id, seq, parent, data, updated_ms, deleted_ms, visible_at, listed_data, version FROM records").toArray().map(mirrorRowOf));
    return this.loaded;
  }

  /**
   * The store version a listing for request `visibleTo` can be remembered
   * against; null while some record still shows an older view to it.
   */
  listingVersion(visibleTo: number): number | null {
    return visibleTo > this.lagHorizon ? this.version : null;
  }

  /** The rows of a list without a time window, from the mirror (remembered while no record lags). */
  private selected(f: ListFilter): MirrorRow[] {
    return this.mirror().select(f, this.version, f.visibleTo > this.lagHorizon ? filterKey(f) : undefined);
  }

  private where(f: ListFilter): { clause: string; args: SqlStorageValue[] } {
    const parts = ["entity = ?", "(visible_at <= ? OR listed_data IS NOT NULL)"];
    const args: SqlStorageValue[] = [f.entity, f.visibleTo];
    if (f.parent !== undefined) {
      parts.push("parent = ?");
      args.push(f.parent);
    }
    if (!f.includeDeleted) parts.push("deleted_ms IS NULL");
    if (f.since) {
      parts.push(f.since.inclusive ? "updated_ms >= ?" : "updated_ms > ?");
      args.push(f.since.ms);
    }
    if (f.range) {
      parts.push("data ->> ? >= ? AND data ->> ? < ?");
      args.push(fieldPath(f.range.field), f.range.fromMs, fieldPath(f.range.field), f.range.toMs);
    }
    return { clause: parts.join(" AND "), args };
  }

  count(f: ListFilter): number {
    if (!f.range) return this.selected(f).length;
    const stable = f.visibleTo > this.lagHorizon;
    const key = filterKey(f);
    const hit = stable ? this.counts.get(key) : undefined;
    if (hit && hit.version === this.version) return hit.n;
    const { clause, args } = this.where(f);
    const n = this.sql.exec(`SELECT count(*) AS n FROM records WHERE ${clause}`, ...args).one().n as number;
    if (stable) {
      if (this.counts.size >= 1000) this.counts.clear();
      this.counts.set(key, { version: this.version, n });
    }
    return n;
  }

  deletedPage(since: { ms: number; inclusive: boolean } | undefined, offset: number, limit: number): { rows: RecordRow[]; total: number } {
    const cond = since ? (since.inclusive ? "AND deleted_ms >= ?" : "AND deleted_ms > ?") : "";
    const args: SqlStorageValue[] = since ? [since.ms] : [];
    const total = this.sql.exec(`SELECT count(*) AS n FROM records WHERE deleted_ms IS NOT NULL ${cond}`, ...args).one().n as number;
    const rows = this.sql
      .exec(`SELECT * FROM records WHERE deleted_ms IS NOT NULL ${cond} ORDER BY deleted_ms, seq LIMIT ? OFFSET ?`, ...args, limit, offset)
      .toArray()
      .map((r) => fromMirror(mirrorRowOf(r)));
    return { rows, total };
  }

  /** The first record of an entity in list order (by sequence), deleted or live as asked; null when there is none. */
  first(entity: string, deleted: boolean): RecordRow | null {
    const rows = this.sql.exec(`SELECT * FROM records WHERE entity = ? AND deleted_ms IS ${deleted ? "NOT " : ""}NULL ORDER BY seq LIMIT 1`, entity).toArray();
    return rows.length ? fromMirror(mirrorRowOf(rows[0])) : null;
  }

  get(entity: string, id: string): RecordRow | null {
    const row = this.mirror().get(entity, id);
    return row ? fromMirror(row) : null;
  }

  /** One record as stored JSON text, for callers that may not need to parse it. */
  getText(entity: string, id: string): PageRow | null {
    const r = this.mirror().get(entity, id);
    return r ? { id: r.id, version: r.version, deleted: r.deletedMs !== null, lagging: false, text: r.text, source: r } : null;
  }

  /**
   * One page of a list as stored JSON text (the pre-update text for rows still
   * lagging), so callers can skip parsing rows they have serialised before.
   */
  pageText(f: ListFilter, offset: number, limit: number): PageRow[] {
    if (!f.range) {
      return this.selected(f)
        .slice(offset, offset + limit)
        .map((r) => {
          const lagging = r.visibleAt > f.visibleTo && r.listedText !== null;
          return { id: r.id, version: r.version, deleted: r.deletedMs !== null, lagging, text: (lagging ? r.listedText : r.text) as string, source: r };
        });
    }
    const { clause, args } = this.where(f);
    return this.sql
      .exec(
        `SELECT id, version, deleted_ms, visible_at, data, listed_data FROM records WHERE ${clause} ORDER BY ${f.range ? "data ->> ?, " : ""}seq LIMIT ? OFFSET ?`,
        ...args,
        ...(f.range ? [fieldPath(f.range.field)] : []),
        limit,
        offset,
      )
      .toArray()
      .map((r) => {
        const lagging = (r.visible_at as number) > f.visibleTo && r.listed_data !== null;
        return { id: r.id as string, version: r.version as number, deleted: r.deleted_ms !== null, lagging, text: (lagging ? r.listed_data : r.data) as string, source: null };
      });
  }

  /**
   * The first `limit` children of each parent, as their list shows them to a
   * request with sequence number `visibleTo` (stored text, list order), and
   * how many each parent has in all: one query for a whole page of parents.
   */
  childrenOf(entity: string, parents: string[], visibleTo: number, includeDeleted: boolean, limit: number): Map<string, { rows: { id: string; text: string; deleted: boolean }[]; total: number }> {
    const out = new Map<string, { rows: { id: string; text: string; deleted: boolean }[]; total: number }>();
    if (!parents.length) return out;
    const rows = this.sql
      .exec(
        `SELECT parent, id, text, deleted_ms, rn, total FROM (
           SELECT parent, id, CASE WHEN visible_at > ? AND listed_data IS NOT NULL THEN listed_data ELSE data END AS text, deleted_ms,
                  row_number() OVER (PARTITION BY parent ORDER BY seq) AS rn, count(*) OVER (PARTITION BY parent) AS total
           FROM records
           WHERE entity = ? AND parent IN (SELECT value FROM json_each(?)) AND (visible_at <= ? OR listed_data IS NOT NULL)${includeDeleted ? "" : " AND deleted_ms IS NULL"})
         WHERE rn <= ? ORDER BY parent, rn`,
        visibleTo,
        entity,
        JSON.stringify(parents),
        visibleTo,
        limit,
      )
      .toArray();
    for (const r of rows) {
      const parent = r.parent as string;
      let entry = out.get(parent);
      if (!entry) out.set(parent, (entry = { rows: [], total: r.total as number }));
      entry.rows.push({ id: r.id as string, text: r.text as string, deleted: r.deleted_ms !== null });
    }
    return out;
  }

  /** Moves the last `n` live records of an entity to the head of its list (a fault: offsets shift mid-crawl). */
  driftToHead(entity: string, n: number): void {
    const tail = this.sql.exec("SELECT id, seq FROM records WHERE entity = ? AND deleted_ms IS NULL AND seq > 0 ORDER BY seq DESC LIMIT ?", entity, n).toArray();
    for (const r of tail) this.sql.exec("UPDATE records SET seq = ? WHERE entity = ? AND id = ?", -(r.seq as number), entity, r.id);
    this.version += 1;
    this.loaded = null;
  }

  /** The `n` oldest live records of an entity (in list order, drifted ones excepted) whose `field` holds `value`. */
  oldestWhere(entity: string, field: string, value: string, n: number): RecordRow[] {
    const rows = this.sql
      .exec("SELECT id FROM records WHERE entity = ? AND deleted_ms IS NULL AND seq > 0 AND json_extract(data, ?) = ? ORDER BY seq LIMIT ?", entity, `$.${field}`, value, n)
      .toArray();
    return rows.map((r) => this.get(entity, r.id as string)).filter((r): r is RecordRow => r !== null);
  }

  /** Index of the next record created through the API: records stored plus ids handed out for records that never landed. */
  nextIndex(entity: string): number {
    return this.countEntity(entity) + this.reserved(entity);
  }

  /** Hands out the next index without storing a record (a write that reports success and drops it). */
  reserveIndex(entity: string): number {
    const index = this.nextIndex(entity);
    this.version += 1;
    this.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", `reserved:${entity}`, String(this.reserved(entity) + 1));
    return index;
  }

  private reserved(entity: string): number {
    const rows = this.sql.exec("SELECT value FROM meta WHERE key = ?", `reserved:${entity}`).toArray();
    return rows.length ? Number(rows[0].value) : 0;
  }

  countEntity(entity: string): number {
    return this.mirror().countEntity(entity);
  }

  nextSeq(): number {
    return this.mirror().highestSeq() + 1;
  }

  insert(r: RecordRow): void {
    this.version += 1;
    this.lagHorizon = Math.max(this.lagHorizon, r.visibleAt);
    const m = toMirror(r);
    this.sql.exec(
      "INSERT INTO records (entity, id, seq, parent, data, updated_ms, deleted_ms, visible_at, listed_data, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      r.entity,
      r.id,
      r.seq,
      r.parent,
      m.text,
      r.updatedMs,
      r.deletedMs,
      r.visibleAt,
      m.listedText,
      r.version,
    );
    this.loaded?.insert(m);
  }

  update(r: RecordRow): void {
    this.version += 1;
    this.lagHorizon = Math.max(this.lagHorizon, r.visibleAt);
    const m = toMirror(r);
    this.sql.exec(
      "UPDATE records SET data = ?, updated_ms = ?, deleted_ms = ?, visible_at = ?, listed_data = ?, version = ? WHERE entity = ? AND id = ?",
      m.text,
      r.updatedMs,
      r.deletedMs,
      r.visibleAt,
      m.listedText,
      r.version,
      r.entity,
      r.id,
    );
    this.loaded?.update(m);
  }

  /** Canonical text of all records, the input of the state hash. */
  canonical(): string {
    return this.sql
      .exec("SELECT entity, id, parent, data, deleted_ms FROM records ORDER BY seq")
      .toArray()
      .map((r) => `${r.entity}\t${r.id}\t${r.parent ?? ""}\t${r.data}\t${r.deleted_ms ?? ""}`)
      .join("\n");
  }
}
