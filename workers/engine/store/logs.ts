/** How a request's credentials fared. */
export type AuthOutcome = "ok" | "expired" | "invalid" | "missing";

/** One row of the request log (DESIGN.md shape). */
export interface RequestLogEntry {
  seq: number;
  epoch: number;
  /** Real arrival time, seconds with ms precision. */
  ts: number;
  method: string;
  path: string;
  /** Query parameters, full values (a repeated key keeps its last value). */
  query: Record<string, string>;
  /** Header names lower-cased, secret values redacted. */
  headers: Record<string, string>;
  /** Parsed body (full values), raw text when unparseable, null when absent. */
  body: unknown;
  status: number;
  authOutcome: AuthOutcome;
  rateLimited: boolean;
  retryAfter: number | null;
  idempotencyKey: string | null;
  /** Ids of the faults that shaped the response. */
  faults: string[];
  /** Ids of the documentation lies this request touched. */
  lies: string[];
}

/** One row of the token log. */
export interface TokenLogEntry {
  seq: number;
  epoch: number;
  ts: number;
  kind: string;
  route: string;
  expiresIn: number | null;
}

/**
 * Append-only logs of one (world, role). Request rows are appended in order
 * before each response leaves, into a queue that is written to SQLite on the
 * next turn of the event loop (and before any read), so one storage commit
 * covers every request that arrived in the meantime.
 */
export class LogStore {
  private pending: RequestLogEntry[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private lastRequestSeq: number;
  private lastTokenSeq: number;

  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
    this.lastRequestSeq = (sql.exec("SELECT max(seq) AS m FROM requests").one().m as number | null) ?? 0;
    this.lastTokenSeq = (sql.exec("SELECT max(seq) AS m FROM tokens").one().m as number | null) ?? 0;
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

  appendRequest(e: RequestLogEntry): void {
    this.pending.push(e);
    this.flushTimer ??= setTimeout(() => this.flush(), 0);
  }

  /** Writes queued request rows. */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const rows = this.pending;
    this.pending = [];
    for (const e of rows) this.write(e);
  }

  private write(e: RequestLogEntry): void {
    this.sql.exec(
      `INSERT INTO requests (seq, epoch, ts, method, path, query, headers, body, status, auth_outcome, rate_limited, retry_after, idempotency_key, faults, lies)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      e.seq, e.epoch, e.ts, e.method, e.path, JSON.stringify(e.query), JSON.stringify(e.headers),
      e.body === null ? null : JSON.stringify(e.body), e.status, e.authOutcome, e.rateLimited ? 1 : 0,
      e.retryAfter, e.idempotencyKey, JSON.stringify(e.faults), JSON.stringify(e.lies),
    );
  }

  appendToken(e: Omit<TokenLogEntry, "seq">): void {
    this.lastTokenSeq += 1;
    this.sql.exec("INSERT INTO tokens (seq, epoch, ts, kind, route, expires_in) VALUES (?, ?, ?, ?, ?, ?)", this.lastTokenSeq, e.epoch, e.ts, e.kind, e.route, e.expiresIn);
  }

  requests(epoch?: number): RequestLogEntry[] {
    this.flush();
    const rows = epoch === undefined ? this.sql.exec("SELECT * FROM requests ORDER BY seq") : this.sql.exec("SELECT * FROM requests WHERE epoch = ? ORDER BY seq", epoch);
    return rows.toArray().map((r) => ({
      seq: r.seq as number,
      epoch: r.epoch as number,
      ts: r.ts as number,
      method: r.method as string,
      path: r.path as string,
      query: JSON.parse(r.query as string),
      headers: JSON.parse(r.headers as string),
      body: r.body === null ? null : JSON.parse(r.body as string),
      status: r.status as number,
      authOutcome: r.auth_outcome as AuthOutcome,
      rateLimited: r.rate_limited === 1,
      retryAfter: (r.retry_after as number | null) ?? null,
      idempotencyKey: (r.idempotency_key as string | null) ?? null,
      faults: JSON.parse(r.faults as string),
      lies: JSON.parse(r.lies as string),
    }));
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
