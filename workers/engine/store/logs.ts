import type { AuthOutcome, BodyNote, RequestLogEntry, TokenLogEntry } from "../../../declarations/evidence/logs.ts";
import { boundedStringMap, jsonDepthExceeds, MAX_JSON_DEPTH, truncateText } from "../http/request-body.ts";

/** Characters of JSON a column may hold: a row must fit the storage row limit (2 MB) whatever the client sent. */
const CAP = { method: 32, path: 8192, query: 64 * 1024, headers: 64 * 1024, idempotencyKey: 1024 } as const;

const STORED = "stored";

/** A row to store: its encoding, and what its segment records beside it. */
interface Encoded {
  seq: number;
  epoch: number;
  faults: readonly string[];
  text: string;
}

/**
 * Append-only logs of one (world, role). A request's row is encoded (and
 * bounded) and written within the request, before its answer is returned, so
 * the Durable Object's output gate holds the answer until the row is durable:
 * a client never sees an answer whose row a crash could lose. Storage commits
 * the writes of requests served together at once. A row is stored as a
 * segment of one (one SQLite row holding a JSON array, the layout rows once
 * shared when they were batched); a row storage refuses is replaced by a
 * stand-in naming the error. Rows written before segments existed stay in
 * the `requests` table and are read with the rest.
 */
export class LogStore {
  private lastRequestSeq: number;
  private lastTokenSeq: number;
  /** Requests of which not even a stand-in row could be stored, by epoch. */
  private readonly lost = new Map<number, number>();

  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
    const legacy = (sql.exec("SELECT max(seq) AS m FROM requests").one().m as number | null) ?? 0;
    const segmented = (sql.exec("SELECT max(max_seq) AS m FROM request_segments").one().m as number | null) ?? 0;
    this.lastRequestSeq = Math.max(legacy, segmented);
    this.lastTokenSeq = (sql.exec("SELECT max(seq) AS m FROM tokens").one().m as number | null) ?? 0;
    for (const r of sql.exec("SELECT key, value FROM meta WHERE key LIKE 'unlogged:%'").toArray()) this.lost.set(Number(String(r.key).slice(9)), Number(r.value));
  }

  /** Sequence number the next request will get. */
  nextRequestSeq(): number {
    return this.lastRequestSeq + 1;
  }

  /**
   * Takes the next sequence number for a request that just arrived. Done
   * synchronously on arrival: requests interleave at every await, so a number
   * handed out later could be handed out twice.
   */
  allocateRequestSeq(): number {
    this.lastRequestSeq += 1;
    return this.lastRequestSeq;
  }

  /**
   * Writes a request's row (or its stand-in) and returns its JSON text. Null
   * when the row could not be encoded: a stand-in (status 500, `logError`) is
   * written instead and the caller must answer `log_unavailable`. `secrets`
   * are kept findable in cut values.
   */
  appendRequest(e: RequestLogEntry, secrets: readonly string[] = []): string | null {
    let text: string;
    try {
      text = JSON.stringify(encodeRequest(e, secrets));
    } catch (err) {
      this.storeAlone({ seq: e.seq, epoch: e.epoch, faults: e.faults, text: JSON.stringify(standIn({ ...e, status: 500 }, err)) });
      return null;
    }
    this.storeAlone({ seq: e.seq, epoch: e.epoch, faults: e.faults, text });
    return text;
  }

  /**
   * Writes the row of a replayed answer: the row another request was logged
   * with, `tail` being its JSON after `ts` (see {@link rowTail}), under this
   * request's number and time. Replayed rows name no fault (worlds with armed
   * faults do not replay).
   */
  appendReplayed(seq: number, epoch: number, ts: number, tail: string): void {
    this.storeAlone({ seq, epoch, faults: [], text: `{"seq":${seq},"epoch":${epoch},"ts":${ts}${tail}` });
  }

  /** Requests of an epoch that reached the vendor but have no row at all. */
  unlogged(epoch: number): number {
    return this.lost.get(epoch) ?? 0;
  }

  /** Ids of the faults that shaped any logged response of an epoch. */
  faultsFired(epoch: number): Set<string> {
    const fired = new Set<string>();
    for (const table of ["requests", "request_segments"])
      for (const r of this.sql.exec(`SELECT faults FROM ${table} WHERE epoch = ? AND faults != '[]'`, epoch)) for (const f of JSON.parse(r.faults as string) as string[]) fired.add(f);
    return fired;
  }

  /** A row on its own: as it is, else as a stand-in naming why, else counted lost. */
  private storeAlone(row: Encoded): void {
    const refused = this.store(row);
    if (refused === STORED) return;
    let standInRow: Encoded;
    try {
      standInRow = { ...row, text: JSON.stringify(standIn(JSON.parse(row.text) as RequestLogEntry, refused.error)) };
    } catch {
      this.countLost(row.epoch);
      return;
    }
    if (this.store(standInRow) !== STORED) this.countLost(row.epoch);
  }

  /** Stores a row as a segment of one; what storage said when it refused (and stored nothing). */
  private store(row: Encoded): typeof STORED | { error: unknown } {
    try {
      this.sql.exec("INSERT INTO request_segments (max_seq, epoch, faults, rows) VALUES (?, ?, ?, ?)", row.seq, row.epoch, JSON.stringify([...new Set(row.faults)]), `[${row.text}]`);
      return STORED;
    } catch (error) {
      return { error };
    }
  }

  private countLost(epoch: number): void {
    const n = (this.lost.get(epoch) ?? 0) + 1;
    this.lost.set(epoch, n);
    try {
      this.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", `unlogged:${epoch}`, String(n));
    } catch {
      // Storage refuses writes altogether; the in-memory count still reports the loss.
    }
  }

  appendToken(e: Omit<TokenLogEntry, "seq">): void {
    this.lastTokenSeq += 1;
    this.sql.exec("INSERT INTO tokens (seq, epoch, ts, kind, route, expires_in) VALUES (?, ?, ?, ?, ?, ?)", this.lastTokenSeq, e.epoch, e.ts, e.kind, e.route, e.expiresIn);
  }

  /** Request rows of an epoch (or all), in order. Never throws on what a client sent. */
  requests(epoch?: number): RequestLogEntry[] {
    const where = epoch === undefined ? "" : " WHERE epoch = ?";
    const args = epoch === undefined ? [] : [epoch];
    const legacy = this.sql
      .exec(`SELECT * FROM requests${where} ORDER BY seq`, ...args)
      .toArray()
      .map(readLegacyRow);
    const segmented = this.sql
      .exec(`SELECT rows FROM request_segments${where} ORDER BY id`, ...args)
      .toArray()
      .flatMap((r) => (JSON.parse(r.rows as string) as RequestLogEntry[]).map(readSegmentRow));
    // Rows are written as their requests finish, which is not always the order they arrived in.
    return [...legacy, ...segmented].sort((a, b) => a.seq - b.seq);
  }

  tokens(epoch?: number): TokenLogEntry[] {
    const rows = epoch === undefined ? this.sql.exec("SELECT * FROM tokens ORDER BY seq") : this.sql.exec("SELECT * FROM tokens WHERE epoch = ? ORDER BY seq", epoch);
    return rows.toArray().map((r) => ({
      seq: r.seq as number,
      epoch: r.epoch as number,
      ts: r.ts as number,
      kind: r.kind as string,
      route: r.route as string,
      expiresIn: (r.expires_in as number | null) ?? null,
    }));
  }
}

/**
 * A row's JSON after its `ts` field, which {@link LogStore.appendReplayed}
 * puts back after another request's number and time. A row's first fields
 * are numbers (`seq`, `epoch`, `ts`), so the first `,"method":` ends them.
 */
export function rowTail(text: string): string {
  const at = text.indexOf(',"method":');
  if (at < 0 || !text.startsWith('{"seq":')) throw new Error("not a request row");
  return text.slice(at);
}

/** The row as stored, each client-chosen part bounded (and secrets kept findable where a value is cut). */
function encodeRequest(e: RequestLogEntry, secrets: readonly string[]): RequestLogEntry {
  return {
    ...e,
    method: truncateText(e.method, CAP.method),
    path: truncateText(e.path, CAP.path, secrets),
    query: boundedStringMap(e.query, CAP.query, secrets),
    headers: boundedStringMap(e.headers, CAP.headers, secrets),
    idempotencyKey: e.idempotencyKey === null ? null : e.idempotencyKey.slice(0, CAP.idempotencyKey),
  };
}

/** What is left of a row that could not be stored: who asked for what, when, and why the rest is missing. */
function standIn(e: RequestLogEntry, err: unknown): RequestLogEntry {
  const text = (v: string) => truncateText(v, 1024);
  return {
    seq: e.seq,
    epoch: e.epoch,
    ts: e.ts,
    method: text(String(e.method)),
    path: text(String(e.path)),
    query: {},
    headers: {},
    body: null,
    bodyBytes: e.bodyBytes,
    bodyNote: e.bodyNote,
    bodySha256: e.bodySha256,
    status: e.status,
    authOutcome: e.authOutcome,
    rateLimited: e.rateLimited,
    retryAfter: e.retryAfter,
    idempotencyKey: null,
    faults: e.faults,
    lies: e.lies,
    logError: text(err instanceof Error ? `${err.name}: ${err.message}` : String(err)),
  };
}

/** A segment's row as the log hands it on: every field present, in the order of the interface. */
function readSegmentRow(r: RequestLogEntry): RequestLogEntry {
  const entry: RequestLogEntry = {
    seq: r.seq,
    epoch: r.epoch,
    ts: r.ts,
    method: r.method,
    path: r.path,
    query: r.query,
    headers: r.headers,
    body: r.body ?? null,
    bodyBytes: r.bodyBytes ?? 0,
    bodyNote: r.bodyNote ?? null,
    bodySha256: r.bodySha256 ?? null,
    status: r.status,
    authOutcome: r.authOutcome,
    rateLimited: r.rateLimited === true,
    retryAfter: r.retryAfter ?? null,
    idempotencyKey: r.idempotencyKey ?? null,
    faults: r.faults,
    lies: r.lies,
  };
  if (r.logError) entry.logError = r.logError;
  return entry;
}

/** A row of the `requests` table, written before segments existed. */
function readLegacyRow(r: Record<string, SqlStorageValue>): RequestLogEntry {
  const body = readBody(r.body as string | null);
  const entry: RequestLogEntry = {
    seq: r.seq as number,
    epoch: r.epoch as number,
    ts: r.ts as number,
    method: r.method as string,
    path: r.path as string,
    query: readMap(r.query as string),
    headers: readMap(r.headers as string),
    body: body.value,
    bodyBytes: (r.body_bytes as number | null) ?? 0,
    bodyNote: body.note ?? (r.body_note as BodyNote | null) ?? null,
    bodySha256: (r.body_sha256 as string | null) ?? null,
    status: r.status as number,
    authOutcome: r.auth_outcome as AuthOutcome,
    rateLimited: r.rate_limited === 1,
    retryAfter: (r.retry_after as number | null) ?? null,
    idempotencyKey: (r.idempotency_key as string | null) ?? null,
    faults: JSON.parse(r.faults as string),
    lies: JSON.parse(r.lies as string),
  };
  if (r.log_error) entry.logError = r.log_error as string;
  return entry;
}

/** A stored body; rows written before bodies were bounded may nest too deep to hand on, and come back as text. */
function readBody(stored: string | null): { value: unknown; note: BodyNote | null } {
  if (stored === null) return { value: null, note: null };
  if (jsonDepthExceeds(stored, MAX_JSON_DEPTH + 1)) return { value: truncateText(stored, 256 * 1024), note: "too_deep" };
  try {
    return { value: JSON.parse(stored), note: null };
  } catch {
    return { value: stored, note: "not_utf8" };
  }
}

function readMap(stored: string): Record<string, string> {
  try {
    const v: unknown = JSON.parse(stored);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}
