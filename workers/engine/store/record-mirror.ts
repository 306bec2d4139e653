/**
 * @module record-mirror
 * Every record of a world held in memory in list order, beside the SQLite
 * table that stays the durable copy: the record store writes both, and reads
 * lists and single records from here without a SQL statement. Row texts are
 * the stored JSON strings themselves, so what a page is built from is byte for
 * byte what SQLite holds.
 */

/** One record as the mirror holds it (data still as its stored JSON text). */
export interface MirrorRow {
  entity: string;
  id: string;
  seq: number;
  parent: string | null;
  /** The stored JSON text of the record's values. */
  text: string;
  updatedMs: number;
  deletedMs: number | null;
  visibleAt: number;
  /** The stored JSON text lists show until `visibleAt`, or null. */
  listedText: string | null;
  version: number;
}

/** The predicate of a list filter that the mirror answers (no time window). */
export interface MirrorFilter {
  entity: string;
  parent?: string;
  includeDeleted: boolean;
  visibleTo: number;
  since?: { ms: number; inclusive: boolean };
}

/** Filtered lists remembered per store version; past this many the memo starts over. */
const MEMO_CAP = 256;

export class RecordMirror {
  private readonly byKey = new Map<string, MirrorRow>();
  /** Each entity's rows in list order (ascending seq). */
  private readonly byEntity = new Map<string, MirrorRow[]>();
  private maxSeq = 0;
  /** Filtered lists by filter, for the store version they were built at. */
  private readonly memo = new Map<string, { version: number; rows: MirrorRow[] }>();

  constructor(rows: MirrorRow[]) {
    rows.sort((a, b) => a.seq - b.seq);
    for (const r of rows) this.insert(r);
  }

  private static key(entity: string, id: string): string {
    return `${entity}\u0000${id}`;
  }

  /** A new record. */
  insert(r: MirrorRow): void {
    this.byKey.set(RecordMirror.key(r.entity, r.id), r);
    let list = this.byEntity.get(r.entity);
    if (!list) this.byEntity.set(r.entity, (list = []));
    // Rows arrive in seq order and new records take the highest seq, so this is nearly always a push.
    let at = list.length;
    while (at > 0 && list[at - 1].seq > r.seq) at -= 1;
    list.splice(at, 0, r);
    this.maxSeq = Math.max(this.maxSeq, r.seq);
  }

  get(entity: string, id: string): MirrorRow | undefined {
    return this.byKey.get(RecordMirror.key(entity, id));
  }

  /** New values of a stored record (its seq, entity and id unchanged). */
  update(r: Omit<MirrorRow, "seq" | "parent">): void {
    const row = this.byKey.get(RecordMirror.key(r.entity, r.id));
    if (!row) return;
    row.text = r.text;
    row.updatedMs = r.updatedMs;
    row.deletedMs = r.deletedMs;
    row.visibleAt = r.visibleAt;
    row.listedText = r.listedText;
    row.version = r.version;
  }

  /** Records of an entity, deleted ones included. */
  countEntity(entity: string): number {
    return this.byEntity.get(entity)?.length ?? 0;
  }

  /** The highest seq of any record (0 when there is none). */
  highestSeq(): number {
    return this.maxSeq;
  }

  /**
   * The rows a filter selects, in list order. When `memoKey` is given the
   * result is remembered for `version`: callers pass one only when the rows'
   * visibility cannot depend on the request (no record lags).
   */
  select(f: MirrorFilter, version: number, memoKey?: string): MirrorRow[] {
    if (memoKey !== undefined) {
      const hit = this.memo.get(memoKey);
      if (hit && hit.version === version) return hit.rows;
    }
    const rows = (this.byEntity.get(f.entity) ?? []).filter(
      (r) =>
        (r.visibleAt <= f.visibleTo || r.listedText !== null) &&
        (f.parent === undefined || r.parent === f.parent) &&
        (f.includeDeleted || r.deletedMs === null) &&
        (f.since === undefined || (f.since.inclusive ? r.updatedMs >= f.since.ms : r.updatedMs > f.since.ms)),
    );
    if (memoKey !== undefined) {
      if (this.memo.size >= MEMO_CAP) this.memo.clear();
      this.memo.set(memoKey, { version, rows });
    }
    return rows;
  }
}
