import type { Fault } from "../../../declarations/schema/faults.ts";

type Of<K extends Fault["kind"]> = Extract<Fault, { kind: K }>;

/**
 * The faults armed for the current epoch and the counters their triggers
 * read. One-shot effects (revoking tokens, drifting a list, invalidating
 * cursors) are remembered in SQLite so an evicted object never fires twice.
 */
export class FaultState {
  private readonly armed: Fault[];
  private readonly sql: SqlStorage;
  private readonly epoch: number;
  private readonly commits = new Map<string, number>();
  private readonly pathCounts = new Map<string, number>();
  private readonly pageHits = new Map<string, number>();
  private readonly served = new Map<string, number>();
  private readonly windows = new Map<string, number>();
  private readonly fired = new Set<string>();
  /** Paths some armed trigger counts: only these are counted, so a client's made-up paths cost nothing. */
  private readonly watchedPaths: Set<string>;
  private readonly alarmActive = new Set<string>();
  /** Cursors issued before this request number are refused. */
  cursorCutoff = 0;

  constructor(armed: Fault[], sql: SqlStorage, epoch: number) {
    this.armed = armed;
    this.sql = sql;
    this.epoch = epoch;
    this.watchedPaths = new Set(armed.flatMap((f) => ("path" in f && typeof f.path === "string" ? [f.path] : [])));
    for (const r of sql.exec("SELECT id, seq FROM fault_fired WHERE epoch = ?", epoch).toArray()) {
      this.fired.add(r.id as string);
      const f = armed.find((x) => x.id === r.id);
      if (f?.kind === "cursor-invalidated") this.cursorCutoff = r.seq as number;
    }
    for (const r of sql.exec("SELECT id FROM fault_windows WHERE epoch = ? AND active = 1", epoch).toArray()) this.alarmActive.add(r.id as string);
  }

  private of<K extends Fault["kind"]>(kind: K): Of<K>[] {
    return this.armed.filter((f): f is Of<K> => f.kind === kind);
  }

  /** Requests in the epoch before the current one, and the current request's path. */
  private current = { before: 0, path: "" };

  /** Counts the request being served (triggers compare against the requests before it). */
  observe(path: string, requestsBefore: number): void {
    if (!this.armed.length) return;
    if (this.watchedPaths.has(path)) this.pathCounts.set(path, (this.pathCounts.get(path) ?? 0) + 1);
    this.current = { before: requestsBefore, path };
  }

  private reached(f: { afterRequests?: number; path?: string }): boolean {
    if (f.afterRequests === undefined) return false;
    if (!f.path) return this.current.before >= f.afterRequests;
    const count = this.pathCounts.get(f.path) ?? 0;
    return (f.path === this.current.path ? count - 1 : count) >= f.afterRequests;
  }

  /** Marks a one-shot fault fired at request `seq`; false when it already had. */
  fireOnce(id: string, seq: number): boolean {
    if (this.fired.has(id)) return false;
    this.fired.add(id);
    this.sql.exec("INSERT OR IGNORE INTO fault_fired (epoch, id, seq) VALUES (?, ?, ?)", this.epoch, id, seq);
    return true;
  }

  /** Maintenance that answers this request with 503, if any. */
  maintenance(): Of<"maintenance"> | null {
    for (const f of this.of("maintenance")) {
      if (f.afterSeconds !== undefined) {
        if (this.alarmActive.has(f.id)) return f;
        continue;
      }
      if (this.reached(f) && this.takeOne(f.id, f.count)) return f;
    }
    return null;
  }

  /** Counts one more request shaped by a fault that shapes `count` in all; false once they are used up. */
  private takeOne(id: string, count: number): boolean {
    const n = this.served.get(id) ?? 0;
    if (n >= count) return false;
    this.served.set(id, n + 1);
    return true;
  }

  /** A forced rate-limit window in force for this request, with the seconds left. */
  rateWindow(nowMs: number): { fault: Of<"rate-limit-window">; retryAfter: number } | null {
    for (const f of this.of("rate-limit-window")) {
      if (!this.reached(f)) continue;
      let until = this.windows.get(f.id);
      if (until === undefined) {
        until = nowMs + f.cooldownS * 1000;
        this.windows.set(f.id, until);
      }
      if (nowMs < until) return { fault: f, retryAfter: Math.max(1, Math.ceil((until - nowMs) / 1000)) };
    }
    return null;
  }

  /** Delay for this response, if a slow fault covers it. */
  slow(): Of<"slow"> | null {
    for (const f of this.of("slow")) if (this.reached(f) && this.takeOne(f.id, f.count)) return f;
    return null;
  }

  /** One-shot faults whose trigger this request reached for the first time. */
  dueOneShots(seq: number): (Of<"token-revoked"> | Of<"cursor-invalidated"> | Of<"page-drift">)[] {
    const due: (Of<"token-revoked"> | Of<"cursor-invalidated"> | Of<"page-drift">)[] = [];
    for (const f of this.armed) {
      if ((f.kind === "token-revoked" || f.kind === "cursor-invalidated" || f.kind === "page-drift") && this.reached(f) && this.fireOnce(f.id, seq)) {
        if (f.kind === "cursor-invalidated") this.cursorCutoff = seq;
        due.push(f);
      }
    }
    return due;
  }

  /** The token-revocation fault in force (for the answer to a revoked token). */
  revocation(): Of<"token-revoked"> | null {
    return this.of("token-revoked").find((f) => this.fired.has(f.id)) ?? null;
  }

  /** The cursor fault in force, if any. */
  cursorFault(): Of<"cursor-invalidated"> | null {
    return this.of("cursor-invalidated").find((f) => this.fired.has(f.id)) ?? null;
  }

  /** A 5xx for this request of page `page` of a resource's list, while the fault has tries left. */
  pageError(resource: string, page: number): Of<"error-on-page"> | null {
    for (const f of this.of("error-on-page")) {
      if (f.resource !== resource || f.page !== page) continue;
      const key = `${resource}|${page}`;
      const n = this.pageHits.get(key) ?? 0;
      if (n < f.times) {
        this.pageHits.set(key, n + 1);
        return f;
      }
    }
    return null;
  }

  /** Field renames in force at this checkpoint: `entity.field` -> served name. */
  renames(checkpoint: number): Map<string, { fault: string; to: string }> {
    const out = new Map<string, { fault: string; to: string }>();
    for (const f of this.of("schema-change")) if (checkpoint >= f.fromCheckpoint) out.set(`${f.resource}.${f.field}`, { fault: f.id, to: f.renameTo });
    return out;
  }

  /** The size cap of a bulk write, if armed. */
  sizeCap(write: string): Of<"payload-too-large"> | null {
    return this.of("payload-too-large").find((f) => f.write === write) ?? null;
  }

  /** Call after a write committed; returns the fault that turns its answer into an error, if any. */
  afterCommit(write: string): Of<"error-after-commit"> | null {
    const n = (this.commits.get(write) ?? 0) + 1;
    this.commits.set(write, n);
    for (const f of this.of("error-after-commit")) if (f.write === write && f.nth === n) return f;
    return null;
  }

  /** Armed faults of one kind (webhook injections read them when events are queued). */
  armedOf<K extends Fault["kind"]>(kind: K): Of<K>[] {
    return this.of(kind);
  }

  /** Whether an auth-sunset fault has retired the legacy credential (firing it at its trigger). */
  legacyRetired(seq: number): Of<"auth-sunset"> | null {
    for (const f of this.of("auth-sunset")) if (this.fired.has(f.id) || (this.reached(f) && this.fireOnce(f.id, seq))) return f;
    return null;
  }

  private readonly readCache = new Map<string, { body: unknown; etag: string; atMs: number }>();

  /** A cached copy of a single-record read, when a stale-read fault covers the resource and the client allows caches. */
  staleRead(resource: string, id: string, noCache: boolean, nowMs: number): { fault: Of<"stale-read">; body: unknown; etag: string; ageS: number } | null {
    const f = this.of("stale-read").find((x) => x.resource === resource && this.reached(x));
    if (!f || noCache) return null;
    const hit = this.readCache.get(`${resource}/${id}`);
    return hit ? { fault: f, body: hit.body, etag: hit.etag, ageS: Math.max(0, Math.floor((nowMs - hit.atMs) / 1000)) } : null;
  }

  /** Remembers a fresh single-record read for later stale answers. */
  rememberRead(resource: string, id: string, body: unknown, etag: string, nowMs: number): void {
    if (!this.of("stale-read").some((x) => x.resource === resource)) return;
    if (!this.readCache.has(`${resource}/${id}`)) this.readCache.set(`${resource}/${id}`, { body, etag, atMs: nowMs });
  }

  /** The alarm opened or closed a timed window. */
  setWindow(id: string, active: boolean): void {
    if (active) this.alarmActive.add(id);
    else this.alarmActive.delete(id);
    this.sql.exec("INSERT OR REPLACE INTO fault_windows (epoch, id, active) VALUES (?, ?, ?)", this.epoch, id, active ? 1 : 0);
  }
}
