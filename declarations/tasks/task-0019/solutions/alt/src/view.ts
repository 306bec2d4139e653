import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ApiRecord } from "./client.ts";

export const ENTITIES = ["application", "candidate", "job", "note"] as const;
export type Entity = (typeof ENTITIES)[number];

/** How each entity reaches us: TalentLoop pushes candidates and applications, the rest has to be polled. */
export const SOURCE: Record<Entity, "webhook" | "poll"> = { application: "webhook", candidate: "webhook", job: "poll", note: "poll" };

/** The field that says when a record last changed (notes never change: their creation time). */
const STAMP: Record<Entity, string> = { application: "updated_at", candidate: "updated_at", job: "updated_at", note: "created_at" };

export interface Row {
  entity: Entity;
  source_id: string;
  data: Record<string, unknown>;
  updated_at: string | null;
  is_deleted: boolean;
  source: "webhook" | "poll";
  synced_at: string;
}

interface PollState {
  /** Newest change time read from TalentLoop for the entity: where the next incremental read starts. */
  watermark: string | null;
  /** Records the last completed poll found new or changed. */
  changed: number;
}

interface State {
  rows: Record<string, Row>;
  /** Records TalentLoop removed: they never come back, whatever arrives late. */
  gone: Record<string, true>;
  polls: Record<"job" | "note", PollState>;
}

const key = (entity: string, id: string) => `${entity}/${id}`;
const instant = (v: unknown) => (typeof v === "string" ? Date.parse(v) : Number.NaN);

function later(a: string | null, b: unknown): string | null {
  if (typeof b !== "string" || Number.isNaN(instant(b))) return a;
  return a === null || instant(b) > instant(a) ? b : a;
}

/** The freshness view, kept in one JSON file under OUTPUT_DIR between commands. */
export class View {
  private readonly dir: string;
  private readonly file: string;
  private state: State;

  constructor(dir: string, opts: { fresh?: boolean } = {}) {
    this.dir = dir;
    this.file = join(dir, ".freshness-state.json");
    this.state = { rows: {}, gone: {}, polls: { job: { watermark: null, changed: 0 }, note: { watermark: null, changed: 0 } } };
    if (!opts.fresh) {
      try {
        this.state = JSON.parse(readFileSync(this.file, "utf8")) as State;
      } catch {
        // No state yet: an empty view.
      }
    }
  }

  rows(entity: Entity): Row[] {
    return Object.values(this.state.rows).filter((r) => r.entity === entity);
  }

  liveIds(entity: Entity): string[] {
    return this.rows(entity)
      .filter((r) => !r.is_deleted)
      .map((r) => r.source_id)
      .sort();
  }

  poll(entity: "job" | "note"): PollState {
    return this.state.polls[entity];
  }

  /**
   * Takes in a record as TalentLoop serves it. Never goes back to an older
   * version, never revives a removed record. Answers whether the view changed.
   */
  upsert(entity: Entity, record: ApiRecord, source: "webhook" | "poll"): boolean {
    const k = key(entity, record.id);
    if (this.state.gone[k]) return false;
    const stamp = record[STAMP[entity]];
    const { id: _id, ...data } = record;
    const have = this.state.rows[k];
    if (have) {
      if (instant(have.updated_at) > instant(stamp)) return false;
      if (have.updated_at === stamp && JSON.stringify(have.data) === JSON.stringify(data)) return false;
    }
    this.state.rows[k] = { entity, source_id: record.id, data, updated_at: typeof stamp === "string" ? stamp : null, is_deleted: false, source, synced_at: new Date().toISOString() };
    if (entity === "job" || entity === "note") this.state.polls[entity].watermark = later(this.state.polls[entity].watermark, stamp);
    return true;
  }

  /** Marks a record removed (a candidate's notes go with it). Answers whether the view changed. */
  remove(entity: Entity, id: string, source: "webhook" | "poll"): boolean {
    const k = key(entity, id);
    const already = this.state.gone[k] === true;
    this.state.gone[k] = true;
    const have = this.state.rows[k];
    const now = new Date().toISOString();
    if (!already || (have && !have.is_deleted)) {
      this.state.rows[k] = { entity, source_id: id, data: {}, updated_at: have?.updated_at ?? null, is_deleted: true, source, synced_at: now };
    }
    if (entity === "candidate") {
      for (const note of this.rows("note")) {
        if (note.is_deleted || note.data.candidate_id !== id) continue;
        this.state.gone[key("note", note.source_id)] = true;
        this.state.rows[key("note", note.source_id)] = { ...note, data: {}, is_deleted: true, source, synced_at: now };
      }
    }
    return !already;
  }

  /** Writes the state, then the two files the dashboard reads. */
  save(): void {
    mkdirSync(this.dir, { recursive: true });
    const write = (file: string, value: unknown) => {
      const tmp = `${file}.tmp`;
      writeFileSync(tmp, `${JSON.stringify(value, null, 1)}\n`);
      renameSync(tmp, file);
    };
    write(this.file, this.state);
    const rows = Object.values(this.state.rows).sort((a, b) => (a.entity !== b.entity ? (a.entity < b.entity ? -1 : 1) : a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0));
    write(join(this.dir, "records.json"), rows);
    const report = ENTITIES.map((entity) => {
      const live = this.rows(entity).filter((r) => !r.is_deleted);
      return {
        entity,
        source: SOURCE[entity],
        live_records: live.length,
        watermark: live.reduce<string | null>((w, r) => later(w, r.updated_at), null),
        changed_last_poll: entity === "job" || entity === "note" ? this.state.polls[entity].changed : null,
      };
    });
    write(join(this.dir, "freshness.json"), report);
  }
}
