/**
 * @module fault-runtime
 * The faults armed for the current epoch, the counters their triggers read,
 * and the stages through which their kinds' hooks act. The runtime knows no
 * kind: it asks each armed fault's module (`mechanics/faults/`), kinds in
 * registry order, faults of a kind in declaration order. One-shot firings are
 * kept in SQLite so an evicted object never fires twice.
 */
import type { Fault } from "../../../declarations/schema/faults.ts";
import type { EventShaping, FaultHooks, FaultScope, Refusal, RequestTrigger, WorldEffects } from "../../../mechanics/faults/define.ts";
import { faultKind, faultOrder } from "../../../mechanics/faults/index.ts";
import type { Reply } from "../../../mechanics/kit/reply.ts";

/** One armed fault with its kind's hooks. */
interface Armed {
  fault: Fault;
  hooks: FaultHooks<Fault>;
}

/** How replies are built in the vendor's shapes (the engine supplies them). */
export interface ReplyKit {
  error: FaultScope["error"];
  tooManyRequests: FaultScope["tooManyRequests"];
}

/** The counters of `fault_state`: map entries, memos JSON values (every fault's memo is plain data). */
interface Counters {
  served: [string, number][];
  paths: [string, number][];
  memos: [string, unknown][];
}

export class FaultRuntime implements FaultScope {
  private readonly armed: Armed[];
  private readonly sql: SqlStorage;
  private readonly epoch: number;
  private readonly kit: ReplyKit;
  private readonly pathCounts: Map<string, number>;
  private readonly served: Map<string, number>;
  private readonly memos: Map<string, unknown>;
  /** The counters as last written to `fault_state` (persist() writes only a change). */
  private persisted: string;
  private readonly firedSeq = new Map<string, number>();
  private readonly alarmActive = new Set<string>();
  /** Paths some armed trigger counts: only these are counted, so a client's made-up paths cost nothing. */
  private readonly watchedPaths: Set<string>;
  /** Requests in the epoch before the current one, the current request's path and number. */
  private current = { before: 0, path: "", seq: 0 };

  constructor(armed: Fault[], sql: SqlStorage, epoch: number, kit: ReplyKit) {
    this.armed = armed
      .map((fault, i) => ({ fault, i, order: faultOrder(fault.kind), hooks: faultKind(fault.kind).hooks as FaultHooks<Fault> }))
      .sort((a, b) => a.order - b.order || a.i - b.i)
      .map(({ fault, hooks }) => ({ fault, hooks }));
    this.sql = sql;
    this.epoch = epoch;
    this.kit = kit;
    this.watchedPaths = new Set(armed.flatMap((f) => ("path" in f && typeof f.path === "string" ? [f.path] : [])));
    for (const r of sql.exec("SELECT id, seq FROM fault_fired WHERE epoch = ?", epoch).toArray()) this.firedSeq.set(r.id as string, r.seq as number);
    for (const r of sql.exec("SELECT id FROM fault_windows WHERE epoch = ? AND active = 1", epoch).toArray()) this.alarmActive.add(r.id as string);
    const saved = sql.exec("SELECT state FROM fault_state WHERE epoch = ?", epoch).toArray()[0]?.state as string | undefined;
    const counters = saved ? (JSON.parse(saved) as Counters) : { served: [], paths: [], memos: [] };
    this.served = new Map(counters.served);
    this.pathCounts = new Map(counters.paths);
    this.memos = new Map(counters.memos);
    this.persisted = saved ?? this.counters();
  }

  private counters(): string {
    const counters: Counters = { served: [...this.served], paths: [...this.pathCounts], memos: [...this.memos] };
    return JSON.stringify(counters);
  }

  /**
   * Writes what the faults counted during this request, when it changed, in the request's own turn: a
   * fault's `count`, its path trigger and its memo survive the object being evicted or restarted (a
   * one-shot cut-off fires once per epoch, not once per object lifetime).
   */
  persist(): void {
    if (!this.armed.length) return;
    const now = this.counters();
    if (now === this.persisted) return;
    this.sql.exec("INSERT OR REPLACE INTO fault_state (epoch, state) VALUES (?, ?)", this.epoch, now);
    this.persisted = now;
  }

  // ---- the scope every hook sees ----

  /** Whether no fault is armed: nothing but the request decides its answer. */
  get quiet(): boolean {
    return this.armed.length === 0;
  }

  reached(f: { afterRequests?: number; path?: string }): boolean {
    if (f.afterRequests === undefined) return false;
    if (!f.path) return this.current.before >= f.afterRequests;
    const count = this.pathCounts.get(f.path) ?? 0;
    return (f.path === this.current.path ? count - 1 : count) >= f.afterRequests;
  }

  requestsBefore(): number {
    return this.current.before;
  }

  fired(id: string): boolean {
    return this.firedSeq.has(id);
  }

  fireOnce(id: string): boolean {
    if (this.firedSeq.has(id)) return false;
    this.firedSeq.set(id, this.current.seq);
    this.sql.exec("INSERT OR IGNORE INTO fault_fired (epoch, id, seq) VALUES (?, ?, ?)", this.epoch, id, this.current.seq);
    return true;
  }

  firedAt(id: string): number | null {
    return this.firedSeq.get(id) ?? null;
  }

  takeOne(id: string, count: number): boolean {
    const n = this.served.get(id) ?? 0;
    if (n >= count) return false;
    this.served.set(id, n + 1);
    return true;
  }

  memo<T>(id: string, init: () => T): T {
    if (!this.memos.has(id)) this.memos.set(id, init());
    return this.memos.get(id) as T;
  }

  windowOpen(id: string): boolean {
    return this.alarmActive.has(id);
  }

  error(status: number, code: string, message: string, extra?: Record<string, unknown>, headers?: Record<string, string>): Reply {
    return this.kit.error(status, code, message, extra, headers);
  }

  tooManyRequests(style: "seconds" | "http-date" | "body", seconds: number, nowMs: number): Reply {
    return this.kit.tooManyRequests(style, seconds, nowMs);
  }

  // ---- stages ----

  /** Counts the request being served (triggers compare against the requests before it). */
  observe(path: string, requestsBefore: number, seq: number): void {
    if (!this.armed.length) return;
    if (this.watchedPaths.has(path)) this.pathCounts.set(path, (this.pathCounts.get(path) ?? 0) + 1);
    this.current = { before: requestsBefore, path, seq };
  }

  /** One-shot faults whose trigger this request reached for the first time change the world. */
  fireOneShots(world: WorldEffects): void {
    for (const a of this.armed) if (a.hooks.oneShot && this.reached(a.fault as RequestTrigger) && this.fireOnce(a.fault.id)) a.hooks.oneShot(a.fault, world);
  }

  /** The first fault that answers before routing, or delays the answer. */
  beforeRoute(nowMs: number): { fault: string; refusal: Refusal } | { fault: string; delayMs: number } | null {
    for (const a of this.armed) {
      const r = a.hooks.beforeRoute?.(a.fault, this, { nowMs });
      if (!r) continue;
      return "delayMs" in r ? { fault: a.fault.id, delayMs: r.delayMs } : { fault: a.fault.id, refusal: r };
    }
    return null;
  }

  /** How far the token clock runs ahead of real time for this request (ms), and the first fault that moves it. */
  tokenClock(): { ms: number; fault: string | null } {
    let ms = 0;
    let fault: string | null = null;
    for (const a of this.armed) {
      const s = a.hooks.tokenClockS?.(a.fault, this) ?? 0;
      if (s <= 0) continue;
      ms += s * 1000;
      fault ??= a.fault.id;
    }
    return { ms, fault };
  }

  /** The fault that retires the legacy credential for this request, if any. */
  legacyRetiredBy(): string | null {
    for (const a of this.armed) if (a.hooks.retiresLegacy?.(a.fault, this)) return a.fault.id;
    return null;
  }

  /** A fault's own answer to a request auth refused. */
  onAuthRefused(req: { presentsRevoked(): boolean }): { fault: string; reply: Reply } | null {
    for (const a of this.armed) {
      const reply = a.hooks.onAuthRefused?.(a.fault, this, req);
      if (reply) return { fault: a.fault.id, reply };
    }
    return null;
  }

  /** Cursors issued before this request number are refused, and the fault that says so. */
  cursorCutoff(): { seq: number; fault: string } | null {
    let seq = 0;
    let fault: string | null = null;
    for (const a of this.armed) {
      const at = a.hooks.cursorCutoff?.(a.fault, this);
      if (at === null || at === undefined) continue;
      fault ??= a.fault.id;
      seq = Math.max(seq, at);
    }
    return fault ? { seq, fault } : null;
  }

  onListPage(resource: string, page: number): { fault: string; reply: Reply } | null {
    for (const a of this.armed) {
      const reply = a.hooks.onListPage?.(a.fault, this, { resource, page });
      if (reply) return { fault: a.fault.id, reply };
    }
    return null;
  }

  /** The first fault that holds back the file of a ready job of `exportName`, or null. */
  holdsExportFile(exportName: string): string | null {
    for (const a of this.armed) if (a.hooks.holdsExportFile?.(a.fault, this, { export: exportName })) return a.fault.id;
    return null;
  }

  /** Field renames in force at this checkpoint: `entity.field` -> served name. */
  renames(checkpoint: number): Map<string, { fault: string; to: string }> {
    const out = new Map<string, { fault: string; to: string }>();
    for (const a of this.armed) {
      const r = a.hooks.rename?.(a.fault, checkpoint);
      if (r) out.set(`${r.resource}.${r.field}`, { fault: a.fault.id, to: r.to });
    }
    return out;
  }

  onRead(resource: string, id: string, noCache: boolean, nowMs: number): { fault: string; reply: Reply } | null {
    for (const a of this.armed) {
      const reply = a.hooks.onRead?.(a.fault, this, { resource, id, noCache, nowMs });
      if (reply) return { fault: a.fault.id, reply };
    }
    return null;
  }

  /** Whether some armed fault is told of every record served (`afterRead`), and so needs its body. */
  watchesReads(): boolean {
    return this.armed.some((a) => a.hooks.afterRead !== undefined);
  }

  afterRead(resource: string, id: string, body: unknown, etag: string, nowMs: number): void {
    for (const a of this.armed) a.hooks.afterRead?.(a.fault, this, { resource, id, body, etag, nowMs });
  }

  beforeWrite(name: string, items: number): { fault: string; reply: Reply } | null {
    for (const a of this.armed) {
      const reply = a.hooks.beforeWrite?.(a.fault, this, { name, items });
      if (reply) return { fault: a.fault.id, reply };
    }
    return null;
  }

  /** An update about to change a record: the first fault that answers refuses it (and may change the record first). */
  beforeUpdate(write: string, resource: string, id: string, record: Record<string, unknown>): { fault: string; reply: Reply; set?: Record<string, unknown> } | null {
    for (const a of this.armed) {
      const out = a.hooks.beforeUpdate?.(a.fault, this, { write, resource, id, record });
      if (out) return { fault: a.fault.id, ...out };
    }
    return null;
  }

  /** Whether some armed fault watches updates (so an update's record is read for it first). */
  watchesUpdates(): boolean {
    return this.armed.some((a) => a.hooks.beforeUpdate !== undefined);
  }

  /** A single write about to be applied: the first fault that takes it for later says how (the write is then answered 202). */
  defersWrite(name: string): { fault: string; accepted: { afterRequests: number; requestIdField: string; requestIdPrefix: string } } | null {
    for (const a of this.armed) {
      const accepted = a.hooks.defersWrite?.(a.fault, this, { name });
      if (accepted) return { fault: a.fault.id, accepted };
    }
    return null;
  }

  /** Whether some armed fault may take a write for later (so pending writes must be landed). */
  defersWrites(): boolean {
    return this.armed.some((a) => a.hooks.defersWrite !== undefined);
  }

  /** Every fault is told of a valid bulk item (counters move); the first that makes it a phantom is named. */
  bulkItem(write: string): { fault: string } | null {
    let out: { fault: string } | null = null;
    for (const a of this.armed) if (a.hooks.onBulkItem?.(a.fault, this, { write }) && !out) out = { fault: a.fault.id };
    return out;
  }

  /** Every fault is told of the commit (counters move); the first answer replaces the write's. */
  afterCommit(name: string): { fault: string; reply: Reply } | null {
    let out: { fault: string; reply: Reply } | null = null;
    for (const a of this.armed) {
      const reply = a.hooks.afterCommit?.(a.fault, this, { name });
      if (reply && !out) out = { fault: a.fault.id, reply };
    }
    return out;
  }

  /** Whether a fault turns down an accepted write as it comes to land on `recordId`: the first refusal, named. */
  onLanding(write: string, recordId: string): { fault: string; code: string; message: string } | null {
    for (const a of this.armed) {
      const refusal = a.hooks.onLanding?.(a.fault, this, { write, recordId });
      if (refusal) return { fault: a.fault.id, ...refusal };
    }
    return null;
  }

  /** What the webhook faults do to one new event's deliveries. */
  shapeEvent(event: { type: string; n: number; nthOfType: (type: string) => number }): {
    dropped: boolean;
    extra: (NonNullable<EventShaping["extra"]>[number] & { fault: string })[];
    lateVersion: string | null;
  } {
    let dropped = false;
    let lateVersion: string | null = null;
    const extra: (NonNullable<EventShaping["extra"]>[number] & { fault: string })[] = [];
    for (const a of this.armed) {
      const shaping = a.hooks.onEvent?.(a.fault, event);
      if (!shaping) continue;
      if (shaping.drop) dropped = true;
      if (shaping.lateVersion) lateVersion ??= a.fault.id;
      for (const e of shaping.extra ?? []) extra.push({ ...e, fault: a.fault.id });
    }
    // An event the vendor never sent has no copies or late replays of it; only forgeries (which need no original) still arrive.
    return { dropped, extra: dropped ? extra.filter((e) => e.tampered) : extra, lateVersion: dropped ? null : lateVersion };
  }

  /** One batch of first deliveries, in the order the faults leave it. */
  reorderBatch<J>(jobs: J[]): J[] {
    let out = jobs;
    for (const a of this.armed) if (a.hooks.reorderBatch) out = a.hooks.reorderBatch(a.fault, out);
    return out;
  }

  /** Alarm windows of the armed faults, in declaration order. */
  timedWindows(declared: readonly Fault[]): { fault: string; openAfterS: number; closeAfterS: number }[] {
    const armedIds = new Set(this.armed.map((a) => a.fault.id));
    return declared.filter((f) => armedIds.has(f.id)).flatMap((f) => (faultKind(f.kind).hooks.timedWindows?.(f as never) ?? []).map((w) => ({ fault: f.id, ...w })));
  }

  /** Whether a fault cuts this response off, and after how many bytes. */
  onRespond(bodyBytes: () => number): { fault: string; cutAfterBytes: number } | null {
    for (const a of this.armed) {
      if (!a.hooks.onRespond) continue;
      const cut = a.hooks.onRespond(a.fault, this, { bodyBytes: bodyBytes(), path: this.current.path });
      if (cut) return { fault: a.fault.id, ...cut };
    }
    return null;
  }

  /** The alarm opened or closed a timed window. */
  setWindow(id: string, active: boolean): void {
    if (active) this.alarmActive.add(id);
    else this.alarmActive.delete(id);
    this.sql.exec("INSERT OR REPLACE INTO fault_windows (epoch, id, active) VALUES (?, ?, ?)", this.epoch, id, active ? 1 : 0);
  }
}
