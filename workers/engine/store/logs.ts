import type { AuthOutcome, BodyNote, RequestLogEntry, TokenLogEntry } from "../../../evidence/logs.ts";
import { boundedStringMap, jsonDepthExceeds, MAX_JSON_DEPTH, truncateText } from "../http/request-body.ts";

/** Characters of JSON a column may hold: a row must fit the storage row limit (2 MB) whatever the client sent. */
const CAP = { method: 32, path: 8192, query: 64 * 1024, headers: 64 * 1024, idempotencyKey: 1024 } as const;

/**
 * Characters of JSON one segment of several rows may hold: at up to 3 bytes a
 * character, well inside the storage row limit. A row longer than this is
 * stored in a segment of its own.
 */
export const SEGMENT_CHARS = 256 * 1024;

const STORED = "stored";

/** A queued row: its encoding, and what the segment it joins records beside it. */
interface Encoded {
  seq: number;
  epoch: number;
  faults: readonly string[];
  text: string;
}

/**
 * Append-only logs of one (world, role). A request's row is encoded (and
 * bounded) and queued, and the request waits for {@link written} before its
 * answer is returned: the queue is written on the next turn of the event
 * loop, with the rows of every request that finished meanwhile, as one
 * segment per epoch (one SQLite row holding a JSON array). The write happens
 * before the answers leave, so the Durable Object's output gate holds them
 * until storage has committed it: a client never sees an answer whose row a
 * crash could lose. One segment and one commit for the requests of a turn
 * cost less than a write and a commit each (`npm run bench:log`). A segment
 * that cannot be stored is stored row by row; a row that cannot be stored is
 * replaced by a stand-in naming the error, and never takes another row with
 * it. Rows written before segments existed stay in the `requests` table and
 * are read with the rest.
 */
export class LogStore {
  private pending: Encoded[] = [];
  /** The write of the queued rows, once a request waits for it. */
  private writing: Promise<void> | null = null;
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
   * Queues a request's row and returns its JSON text; the caller awaits
   * {@link written} before answering. Null when the row could not be encoded:
   * a stand-in (status 500, `logError`) is queued instead and the caller must
   * answer `log_unavailable`. `secrets` are kept findable in cut values.
   */
  appendRequest(e: RequestLogEntry, secrets: readonly string[] = []): string | null {
    let text: string;
    try {
      text = JSON.stringify(encodeRequest(e, secrets));
    } catch (err) {
      this.pending.push({ seq: e.seq, epoch: e.epoch, faults: e.faults, text: JSON.stringify(standIn({ ...e, status: 500 }, err)) });
      return null;
    }
    this.pending.push({ seq: e.seq, epoch: e.epoch, faults: e.faults, text });
    return text;
  }

  /**
   * Resolves once every row queued so far is written (on the next turn of
   * the event loop, with the rows queued meanwhile), before which no answer
   * of theirs may leave.
   */
  written(): Promise<void> {
    this.writing ??= new Promise((resolve) =>
      setTimeout(() => {
        this.flush();
        resolve();
      }, 0),
    );
    return this.writing;
  }

  /** Writes the queued request rows now. */
  flush(): void {
    this.writing = null;
    const rows = this.pending;
    this.pending = [];
    for (let i = 0; i < rows.length; ) {
      let end = i + 1;
      // The segment's text: "[", each row followed by "," or "]".
      let chars = 1 + rows[i].text.length + 1;
      while (end < rows.length && rows[end].epoch === rows[i].epoch && chars + rows[end].text.length + 1 <= SEGMENT_CHARS) chars += rows[end++].text.length + 1;
      const run = rows.slice(i, end);
      i = end;
      if (run.length > 1 && this.store(run) === STORED) continue;
      for (const row of run) this.storeAlone(row);
    }
  }

  /** Requests of an epoch that reached the vendor but have no row at all. */
  unlogged(epoch: number): number {
    this.flush();
    return this.lost.get(epoch) ?? 0;
  }

  /** Ids of the faults that shaped any logged response of an epoch. */
  faultsFired(epoch: number): Set<string> {
    this.flush();
    const fired = new Set<string>();
    for (const table of ["requests", "request_segments"])
      for (const r of this.sql.exec(`SELECT faults FROM ${table} WHERE epoch = ? AND faults != '[]'`, epoch)) for (const f of JSON.parse(r.faults as string) as string[]) fired.add(f);
    return fired;
  }

  /** A row on its own: as it is, else as a stand-in naming why, else counted lost. */
  private storeAlone(row: Encoded): void {
    const refused = this.store([row]);
    if (refused === STORED) return;
    let standInRow: Encoded;
    try {
      standInRow = { ...row, text: JSON.stringify(standIn(JSON.parse(row.text) as RequestLogEntry, refused.error)) };
    } catch {
      this.countLost(row.epoch);
      return;
    }
    if (this.store([standInRow]) !== STORED) this.countLost(row.epoch);
  }

  /** Stores rows of one epoch as one segment; what storage said when it refused (and stored nothing). */
  private store(rows: Encoded[]): typeof STORED | { error: unknown } {
    const faults = new Set<string>();
    let maxSeq = 0;
    for (const r of rows) {
      for (const f of r.faults) faults.add(f);
      maxSeq = Math.max(maxSeq, r.seq);
    }
    try {
      this.sql.exec("INSERT INTO request_segments (max_seq, epoch, faults, rows) VALUES (?, ?, ?, ?)", maxSeq, rows[0].epoch, JSON.stringify([...faults]), `[${rows.map((r) => r.text).join(",")}]`);
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
    this.flush();
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
    // Rows are queued as their requests finish, which is not always the order they arrived in.
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
