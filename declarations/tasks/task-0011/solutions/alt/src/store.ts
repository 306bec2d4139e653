import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ApiRecord } from "./talentforge.ts";

export type Entity = "candidate" | "application";
export const ENTITIES: Entity[] = ["candidate", "application"];
export const PATHS: Record<Entity, string> = { candidate: "/rest/candidates", application: "/rest/applications" };
const FILES: Record<Entity, string> = { candidate: "candidates.json", application: "applications.json" };
const STATE = ".talentforge-state.json";

/** One row of a mirror file. */
export interface Row {
  source_id: string;
  data: Record<string, unknown>;
  updated_at: string;
  is_deleted: boolean;
}

/** One row of the change log. */
export interface Change {
  seq: number;
  entity: Entity;
  source_id: string;
  updated_at: string;
  is_deleted: boolean;
  via: "webhook" | "poll";
  event_id: string | null;
}

interface StateFile {
  mirror: Record<Entity, Record<string, Row>>;
  changes: Change[];
  /** Per entity: the newest `updated_at` (epoch ms) a poll has read. Webhooks never move it. */
  pollMarks: Record<Entity, number | null>;
  /** Ids of the events already taken in. */
  events: string[];
}

/** An instant from a TalentForge timestamp (each record carries its own UTC offset). */
export function instant(v: unknown): number {
  const t = typeof v === "string" ? Date.parse(v) : Number.NaN;
  return Number.isFinite(t) ? t : Number.NEGATIVE_INFINITY;
}

const sameData = (a: Record<string, unknown>, b: Record<string, unknown>) => {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && JSON.stringify(a[k]) === JSON.stringify(b[k]));
};

/**
 * The mirror, the change log, the poll watermarks and the ids of the events
 * taken in, persisted together in one file replaced atomically: a change is
 * either applied, logged and remembered, or none of these.
 */
export class Store {
  private readonly dir: string;
  private readonly state: StateFile;
  private readonly seen: Set<string>;

  constructor(dir: string) {
    this.dir = dir;
    const path = join(dir, STATE);
    this.state = existsSync(path)
      ? (JSON.parse(readFileSync(path, "utf8")) as StateFile)
      : { mirror: { candidate: {}, application: {} }, changes: [], pollMarks: { candidate: null, application: null }, events: [] };
    this.seen = new Set(this.state.events);
  }

  /** Whether a first sync has loaded the baseline. */
  get loaded(): boolean {
    return this.state.pollMarks.candidate !== null || this.state.pollMarks.application !== null;
  }

  pollMark(entity: Entity): number | null {
    return this.state.pollMarks[entity];
  }

  /** Moves an entity's poll watermark forward (never back). */
  advancePollMark(entity: Entity, records: ApiRecord[]): void {
    const newest = Math.max(...records.map((r) => instant(r.updated_at)), this.state.pollMarks[entity] ?? Number.NEGATIVE_INFINITY);
    if (Number.isFinite(newest)) this.state.pollMarks[entity] = newest;
  }

  hasEvent(id: string): boolean {
    return this.seen.has(id);
  }

  rememberEvent(id: string): void {
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.state.events.push(id);
  }

  /** Loads a record into the baseline, logging nothing. */
  seed(entity: Entity, record: ApiRecord): void {
    this.state.mirror[entity][record.id] = toRow(record);
  }

  /**
   * Takes in a record as TalentForge serves it. A version no newer than the
   * mirror's (by the record's own `updated_at`, compared as instants) changes
   * nothing; a newer one replaces the row and gets one change-log row.
   */
  apply(entity: Entity, record: ApiRecord, via: Change["via"], eventId: string | null): boolean {
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

  /** Writes the state, then the output files. */
  save(): void {
    mkdirSync(this.dir, { recursive: true });
    this.state.events = [...this.seen];
    atomicWrite(join(this.dir, STATE), JSON.stringify(this.state));
    for (const entity of ENTITIES) {
      const rows = Object.values(this.state.mirror[entity]).sort((a, b) => (a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0));
      atomicWrite(join(this.dir, FILES[entity]), JSON.stringify(rows, null, 2));
    }
    atomicWrite(join(this.dir, "changes.json"), JSON.stringify(this.state.changes, null, 2));
  }
}

function toRow(record: ApiRecord): Row {
  const { id, ...data } = record;
  return { source_id: String(id), data, updated_at: String(record.updated_at), is_deleted: record.is_deleted === true };
}

function atomicWrite(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}
