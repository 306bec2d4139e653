// The mirror and change log, kept in a JSON file next to the outputs.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TfRecord } from "./api.ts";

export type Kind = "candidate" | "application";
export const KINDS: Kind[] = ["candidate", "application"];

type Row = { source_id: string; data: Record<string, unknown>; updated_at: string; is_deleted: boolean };
type Change = { seq: number; entity: Kind; source_id: string; updated_at: string; is_deleted: boolean; via: "webhook" | "poll"; event_id: string | null };
type Saved = { rows: Record<Kind, Record<string, Row>>; changes: Change[]; events: string[]; synced: boolean };

const dir = process.env.OUTPUT_DIR ?? "output";
const statePath = join(dir, "state.json");

export class Mirror {
  private s: Saved;

  constructor() {
    this.s = existsSync(statePath) ? JSON.parse(readFileSync(statePath, "utf8")) : { rows: { candidate: {}, application: {} }, changes: [], events: [], synced: false };
  }

  get synced(): boolean {
    return this.s.synced;
  }

  /** Newest updated_at held for a kind, as an ISO instant (the watermark for the next poll). */
  newest(kind: Kind): string | null {
    let best = Number.NEGATIVE_INFINITY;
    for (const r of Object.values(this.s.rows[kind])) best = Math.max(best, Date.parse(r.updated_at));
    return Number.isFinite(best) ? new Date(best).toISOString() : null;
  }

  seen(eventId: string): boolean {
    return this.s.events.includes(eventId);
  }

  markSeen(eventId: string): void {
    this.s.events.push(eventId);
  }

  load(kind: Kind, rec: TfRecord): void {
    this.s.rows[kind][rec.id] = toRow(rec);
  }

  /** Applies a record if it is newer than what we hold; logs the change. */
  apply(kind: Kind, rec: TfRecord, via: "webhook" | "poll", eventId: string | null): void {
    const prev = this.s.rows[kind][rec.id];
    if (prev && Date.parse(prev.updated_at) >= Date.parse(rec.updated_at) && prev.is_deleted === (rec.is_deleted === true)) return;
    this.s.rows[kind][rec.id] = toRow(rec);
    this.s.changes.push({ seq: this.s.changes.length + 1, entity: kind, source_id: rec.id, updated_at: rec.updated_at, is_deleted: rec.is_deleted === true, via, event_id: eventId });
  }

  finishSync(): void {
    this.s.synced = true;
  }

  save(): void {
    mkdirSync(dir, { recursive: true });
    writeFileSync(statePath, JSON.stringify(this.s));
    const sorted = (kind: Kind) => Object.values(this.s.rows[kind]).sort((a, b) => a.source_id.localeCompare(b.source_id));
    writeFileSync(join(dir, "candidates.json"), JSON.stringify(sorted("candidate"), null, 2));
    writeFileSync(join(dir, "applications.json"), JSON.stringify(sorted("application"), null, 2));
    writeFileSync(join(dir, "changes.json"), JSON.stringify(this.s.changes, null, 2));
  }
}

function toRow(rec: TfRecord): Row {
  const { id, ...data } = rec;
  return { source_id: id, data, updated_at: rec.updated_at, is_deleted: rec.is_deleted === true };
}
