/** The mirror files, the change journal and the nightly poll's watermarks, all under OUTPUT_DIR. */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ApiRecord } from "./talentforge.ts";

export type Entity = "candidate" | "application";
export const ENTITIES: Entity[] = ["candidate", "application"];
export const LIST_PATHS: Record<Entity, string> = { candidate: "/rest/candidates", application: "/rest/applications" };
export const MIRROR_FILES: Record<Entity, string> = { candidate: "candidates.json", application: "applications.json" };
export const JOURNAL_FILE = "changes.json";
export const POLL_STATE_FILE = ".nightly-poll.json";

export interface Row {
  source_id: string;
  data: Record<string, unknown>;
  updated_at: string;
  is_deleted: boolean;
}

export interface Change {
  seq: number;
  entity: Entity;
  source_id: string;
  updated_at: string;
  is_deleted: boolean;
  via: string;
  event_id: string | null;
}

/** The nightly poll's state: per entity, the newest `updated_at` it has read (as TalentForge wrote it). */
export interface PollState {
  watermarks: Record<Entity, string | null>;
}

function readJson<T>(path: string, fallback: T): T {
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as T) : fallback;
}

export function writeJson(path: string, value: unknown): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(`${path}.tmp`, JSON.stringify(value, null, 2));
  renameSync(`${path}.tmp`, path);
}

export function toRow(record: ApiRecord): Row {
  const { id, ...data } = record;
  return { source_id: String(id), data, updated_at: String(record.updated_at), is_deleted: record.is_deleted === true };
}

export class Mirror {
  readonly dir: string;
  readonly rows: Record<Entity, Map<string, Row>>;
  readonly journal: Change[];
  readonly poll: PollState;

  constructor(dir: string) {
    this.dir = dir;
    this.rows = { candidate: new Map(), application: new Map() };
    for (const e of ENTITIES) for (const r of readJson<Row[]>(join(dir, MIRROR_FILES[e]), [])) this.rows[e].set(r.source_id, r);
    this.journal = readJson<Change[]>(join(dir, JOURNAL_FILE), []);
    this.poll = readJson<PollState>(join(dir, POLL_STATE_FILE), { watermarks: { candidate: null, application: null } });
  }

  /** Takes in a record; logs it when it is a new version. Returns whether it was. */
  apply(entity: Entity, record: ApiRecord, via: string, eventId: string | null, log = true): boolean {
    const next = toRow(record);
    const have = this.rows[entity].get(next.source_id);
    if (have && Date.parse(have.updated_at) >= Date.parse(next.updated_at) && have.is_deleted === next.is_deleted) return false;
    this.rows[entity].set(next.source_id, next);
    if (log) this.journal.push({ seq: this.journal.length + 1, entity, source_id: next.source_id, updated_at: next.updated_at, is_deleted: next.is_deleted, via, event_id: eventId });
    return true;
  }

  save(): void {
    for (const e of ENTITIES) {
      const rows = [...this.rows[e].values()].sort((a, b) => (a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0));
      writeJson(join(this.dir, MIRROR_FILES[e]), rows);
    }
    writeJson(join(this.dir, JOURNAL_FILE), this.journal);
    writeJson(join(this.dir, POLL_STATE_FILE), this.poll);
  }
}
