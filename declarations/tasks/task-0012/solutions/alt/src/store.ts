/**
 * The state the listener, the cut-over and the reconciliation poll share, in
 * one file under OUTPUT_DIR replaced atomically and only ever touched under a
 * lock: the mirror, the journal, the poll watermarks, the events taken in and
 * the events held until the cut-over has finished.
 * Each process reloads it under the lock before it changes anything, so two
 * processes never overwrite each other's work. The first to open it adopts
 * the nightly poll's outputs and watermarks.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ENTITIES, JOURNAL_FILE, MIRROR_FILES, Mirror, type Change, type Entity, type Row } from "./mirror.ts";
import type { ApiRecord } from "./talentforge.ts";

const STATE = ".talentforge-state.json";
const LOCK = ".talentforge.lock";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Fields TalentForge renamed on the wire that the mirror keeps under their old
 * name: from 2024-03 candidates carry `email_address` where the docs (and our
 * downstream) say `email`.
 */
const RENAMED: Record<string, string> = { email_address: "email" };

interface State {
  mirror: Record<Entity, Record<string, Row>>;
  changes: Change[];
  /** Per entity: the newest updated_at (epoch ms) a poll has read. Webhooks never move it. */
  marks: Record<Entity, number | null>;
  events: string[];
  /** Verified events received before the cut-over finished, in arrival order, not yet taken in. */
  held: HeldEvent[];
  /** When the cut-over first completed (ISO), or null. */
  cutoverAt: string | null;
}

/** What the listener keeps of an event it holds: enough to read the record it names later. */
export interface HeldEvent {
  id: string;
  type: string;
  recordId: string;
}

export function instant(v: unknown): number {
  const t = typeof v === "string" ? Date.parse(v) : Number.NaN;
  return Number.isFinite(t) ? t : Number.NEGATIVE_INFINITY;
}

function toRow(record: ApiRecord): Row {
  const { id, ...raw } = record;
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    const name = RENAMED[k] && !(RENAMED[k] in raw) ? RENAMED[k] : k;
    data[name] = v;
  }
  return { source_id: String(id), data, updated_at: String(record.updated_at), is_deleted: record.is_deleted === true };
}

const sameData = (a: Record<string, unknown>, b: Record<string, unknown>) => {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && JSON.stringify(a[k]) === JSON.stringify(b[k]));
};

function atomicWrite(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

export class Store {
  private readonly dir: string;
  private state!: State;

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true });
  }

  /** Runs fn with the lock held and the state freshly loaded; saves when fn says it changed something. */
  async locked<T>(fn: (s: Store) => T | Promise<T>, opts: { save: (result: T) => boolean }): Promise<T> {
    const lock = join(this.dir, LOCK);
    for (let i = 0; ; i++) {
      try {
        mkdirSync(lock);
        break;
      } catch {
        try {
          if (Date.now() - statSync(lock).mtimeMs > 20_000) rmSync(lock, { recursive: true, force: true });
        } catch {}
        if (i > 2000) throw new Error("could not take the state lock");
        await sleep(10);
      }
    }
    try {
      this.state = this.load();
      const result = await fn(this);
      if (opts.save(result)) this.save();
      return result;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }

  private load(): State {
    const path = join(this.dir, STATE);
    if (existsSync(path)) {
      const state = JSON.parse(readFileSync(path, "utf8")) as State;
      state.held ??= [];
      return state;
    }
    // First touch after the nightly poll: adopt its mirror, journal and watermarks as they are.
    const legacy = new Mirror(this.dir);
    const mirror = { candidate: {}, application: {} } as State["mirror"];
    for (const e of ENTITIES) for (const [id, row] of legacy.rows[e]) mirror[e][id] = row;
    const marks = { candidate: null, application: null } as State["marks"];
    for (const e of ENTITIES) {
      const w = legacy.poll.watermarks[e];
      marks[e] = w === null ? null : instant(w);
    }
    return { mirror, changes: legacy.journal, marks, events: [], held: [], cutoverAt: null };
  }

  get loaded(): boolean {
    return ENTITIES.some((e) => this.state.marks[e] !== null);
  }

  get cutoverAt(): string | null {
    return this.state.cutoverAt;
  }

  markCutover(): void {
    this.state.cutoverAt ??= new Date().toISOString();
  }

  mark(entity: Entity): number | null {
    return this.state.marks[entity];
  }

  advanceMark(entity: Entity, records: ApiRecord[]): void {
    const newest = Math.max(...records.map((r) => instant(r.updated_at)), this.state.marks[entity] ?? Number.NEGATIVE_INFINITY);
    if (Number.isFinite(newest)) this.state.marks[entity] = newest;
  }

  hasEvent(id: string): boolean {
    return this.state.events.includes(id);
  }

  rememberEvent(id: string): void {
    if (!this.state.events.includes(id)) this.state.events.push(id);
    this.state.held = this.state.held.filter((e) => e.id !== id);
  }

  /** Whether an event is held for after the cut-over. */
  isHeld(id: string): boolean {
    return this.state.held.some((e) => e.id === id);
  }

  /** Keeps an event for after the cut-over (once). */
  hold(event: HeldEvent): void {
    if (!this.isHeld(event.id) && !this.hasEvent(event.id)) this.state.held.push(event);
  }

  /** The events held, oldest first. */
  get held(): HeldEvent[] {
    return [...this.state.held];
  }

  seed(entity: Entity, record: ApiRecord): void {
    this.state.mirror[entity][String(record.id)] = toRow(record);
  }

  /** Takes in a record: only a newer version (or the same instant with other content) changes the mirror and gets one journal row. */
  apply(entity: Entity, record: ApiRecord, via: "poll" | "webhook", eventId: string | null): boolean {
    const next = toRow(record);
    const have = this.state.mirror[entity][next.source_id];
    if (have) {
      const a = instant(next.updated_at);
      const b = instant(have.updated_at);
      if (a < b) return false;
      if (a === b && have.is_deleted === next.is_deleted && sameData(have.data, next.data)) return false;
    }
    this.state.mirror[entity][next.source_id] = next;
    this.state.changes.push({ seq: this.state.changes.length + 1, entity, source_id: next.source_id, updated_at: next.updated_at, is_deleted: next.is_deleted, via, event_id: eventId });
    return true;
  }

  private save(): void {
    atomicWrite(join(this.dir, STATE), JSON.stringify(this.state));
    for (const e of ENTITIES) {
      const rows = Object.values(this.state.mirror[e]).sort((a, b) => (a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0));
      atomicWrite(join(this.dir, MIRROR_FILES[e]), JSON.stringify(rows, null, 2));
    }
    atomicWrite(join(this.dir, JOURNAL_FILE), JSON.stringify(this.state.changes, null, 2));
  }
}
