import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { VendorRecord } from "./globalhire.ts";

/** One row of changes.json. */
export interface Change {
  entity: string;
  source_id: string;
  op: "upsert" | "delete";
  updated_at: string;
  data: Record<string, unknown>;
}

/**
 * Where one entity's feed stands: the latest instant GlobalHire has shown
 * us, and which records carry exactly that instant. `modified_since` is
 * inclusive, so the next read returns those records again; they are skipped
 * unless their `updated_at` moved.
 */
export interface Watermark {
  ms: number;
  ids: string[];
}

export interface FeedState {
  runs: number;
  entities: Record<string, Watermark>;
}

const STATE_FILE = "feed-state.json";

/**
 * The instant of a GlobalHire timestamp. Every branch stamps its records
 * with its own UTC offset (`+05:30`, `-08:00`, ...), whatever the
 * documentation says about UTC, so strings are never compared: only instants.
 */
export function instantOf(stamp: unknown): number {
  const ms = typeof stamp === "string" && /(Z|[+-]\d{2}:\d{2})$/.test(stamp) ? Date.parse(stamp) : Number.NaN;
  if (Number.isNaN(ms)) throw new Error(`unreadable timestamp from GlobalHire: ${JSON.stringify(stamp)}`);
  return ms;
}

export function readState(dir: string): FeedState | null {
  const path = join(dir, STATE_FILE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as FeedState) : null;
}

/** Written whole, then renamed into place: a crash never leaves half a file. */
function writeJson(dir: string, name: string, value: unknown): void {
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${name}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(value, null, 1)}\n`);
  renameSync(tmp, join(dir, name));
}

/** The outputs first, the state last: if the run dies in between, the next run delivers the same changes again rather than losing them. */
export function commit(dir: string, changes: Change[], state: FeedState): void {
  writeJson(dir, "changes.json", changes);
  writeJson(
    dir,
    "load_control.json",
    Object.entries(state.entities).map(([entity, w]) => ({ entity, high_water_mark: Number.isFinite(w.ms) ? new Date(w.ms).toISOString() : null })),
  );
  writeJson(dir, STATE_FILE, state);
}

/**
 * The changes in what a read returned since `prev`, and where the entity's
 * feed stands after it. GlobalHire keeps deleted records in lists and in
 * `modified_since` reads with `archived: true` (the documentation says they
 * disappear), so that flag is what makes a delete.
 */
export function changesSince(entity: string, records: VendorRecord[], prev: Watermark | null): { changes: Change[]; next: Watermark } {
  const seenAtMark = new Set(prev?.ids ?? []);
  const latest = new Map<string, VendorRecord>();
  for (const r of records) latest.set(r.id, r);
  const changes: Change[] = [];
  let ms = prev?.ms ?? Number.NEGATIVE_INFINITY;
  let ids = new Set(prev?.ids ?? []);
  for (const r of latest.values()) {
    const at = instantOf(r.updated_at);
    if (prev && (at < prev.ms || (at === prev.ms && seenAtMark.has(r.id)))) continue;
    const { id, ...data } = r;
    changes.push({ entity, source_id: id, op: r.archived === true ? "delete" : "upsert", updated_at: r.updated_at, data });
    if (at > ms) {
      ms = at;
      ids = new Set([id]);
    } else if (at === ms) ids.add(id);
  }
  return { changes, next: { ms, ids: [...ids].sort() } };
}
