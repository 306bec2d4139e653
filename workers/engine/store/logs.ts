import type { AuthOutcome, RequestLogEntry, TokenLogEntry } from "../../../declarations/evidence/logs.ts";
import { boundedStringMap, jsonDepthExceeds, MAX_JSON_DEPTH, truncateText } from "../http/request-body.ts";
import type { BodyNote } from "../../../declarations/evidence/logs.ts";

/** Characters of JSON a column may hold: a row must fit the storage row limit (2 MB) whatever the client sent. */
const CAP = { method: 32, path: 8192, query: 64 * 1024, headers: 64 * 1024, idempotencyKey: 1024 } as const;

/** A request row as stored: every client-chosen part bounded. */
type StoredRequest = Omit<RequestLogEntry, "query" | "headers" | "body"> & { query: string; headers: string; body: string | null };

/**
 * Append-only logs of one (world, role). A request's row is encoded (and
 * bounded) before its response leaves, then queued and written to SQLite on
 * the next turn of the event loop (and before any read), so one storage
 * commit covers every request that arrived in the meantime. Rows are written
 * one by one: a row that cannot be stored is replaced by a stand-in naming
 * the error, and never takes another row with it.
 */
export class LogStore {
  private pending: StoredRequest[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private lastRequestSeq: number;
  private lastTokenSeq: number;
  /** Requests of which not even a stand-in row could be stored, by epoch. */
  private readonly lost = new Map<number, number>();

  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
    this.lastRequestSeq = (sql.exec("SELECT max(seq) AS m FROM requests").one().m as number | null) ?? 0;
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
   * Queues a request's row. False when the row could not be encoded: a
   * stand-in (status 500, `logError`) is queued instead and the caller must
   * answer `log_unavailable`. `secrets` are kept findable in cut values.
   */
  appendRequest(e: RequestLogEntry, secrets: readonly string[] = []): boolean {
    let ok = true;
    let row: StoredRequest;
    try {
      row = encodeRequest(e, secrets);
    } catch (err) {
      ok = false;
      row = standIn({ ...e, status: 500 }, err);
    }
    this.pending.push(row);
    this.flushTimer ??= setTimeout(() => this.flush(), 0);
    return ok;
  }

  /** Writes queued request rows. */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    while (this.pending.length) {
      const row = this.pending.shift()!;
      try {
        this.write(row);
      } catch (err) {
        try {
          this.write(standIn(row, err));
        } catch {
          this.countLost(row.epoch);
        }
      }
    }
  }

  /** Requests of an epoch that reached the vendor but have no row at all. */
  unlogged(epoch: number): number {
    this.flush();
    return this.lost.get(epoch) ?? 0;
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

  private write(e: StoredRequest): void {
    this.sql.exec(
      `INSERT INTO requests (seq, epoch, ts, method, path, query, headers, body, body_bytes, body_note, body_sha256, status, auth_outcome, rate_limited, retry_after, idempotency_key, faults, lies, log_error)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      e.seq,
      e.epoch,
      e.ts,
      e.method,
      e.path,
      e.query,
      e.headers,
      e.body,
      e.bodyBytes,
      e.bodyNote,
      e.bodySha256,
      e.status,
      e.authOutcome,
      e.rateLimited ? 1 : 0,
      e.retryAfter,
      e.idempotencyKey,
      JSON.stringify(e.faults),
      JSON.stringify(e.lies),
      e.logError ?? null,
    );
  }

  appendToken(e: Omit<TokenLogEntry, "seq">): void {
    this.lastTokenSeq += 1;
    this.sql.exec("INSERT INTO tokens (seq, epoch, ts, kind, route, expires_in) VALUES (?, ?, ?, ?, ?, ?)", this.lastTokenSeq, e.epoch, e.ts, e.kind, e.route, e.expiresIn);
  }

  /** Request rows of an epoch (or all), in order. Never throws on what a client sent. */
  requests(epoch?: number): RequestLogEntry[] {
    this.flush();
    const rows = epoch === undefined ? this.sql.exec("SELECT * FROM requests ORDER BY seq") : this.sql.exec("SELECT * FROM requests WHERE epoch = ? ORDER BY seq", epoch);
    return rows.toArray().map((r) => {
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
    });
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

/** The row as stored, each client-chosen column bounded (and secrets kept findable where a value is cut). */
function encodeRequest(e: RequestLogEntry, secrets: readonly string[]): StoredRequest {
  return {
    ...e,
    method: truncateText(e.method, CAP.method),
    path: truncateText(e.path, CAP.path, secrets),
    query: JSON.stringify(boundedStringMap(e.query, CAP.query, secrets)),
    headers: JSON.stringify(boundedStringMap(e.headers, CAP.headers, secrets)),
    body: e.body === null ? null : JSON.stringify(e.body),
    idempotencyKey: e.idempotencyKey === null ? null : e.idempotencyKey.slice(0, CAP.idempotencyKey),
  };
}

/** What is left of a row that could not be stored: who asked for what, when, and why the rest is missing. */
function standIn(e: RequestLogEntry | StoredRequest, err: unknown): StoredRequest {
  const text = (v: string) => truncateText(v, 1024);
  return {
    seq: e.seq,
    epoch: e.epoch,
    ts: e.ts,
    method: text(String(e.method)),
    path: text(String(e.path)),
    query: "{}",
    headers: "{}",
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
