/**
 * @module task-0042/board-truth
 * The morning board a snapshot of CrewCall implies: for each cleared worker,
 * the posted availability (merged) cut to the morning, minus blocks (a block
 * with no length runs on) and every booking not released, keeping stretches
 * of an hour or more. Pure, so the grader can run it.
 */
import type { Snapshot } from "../../../evidence/verdict.ts";
import { localToUnixS } from "../shared/local-time.ts";

export const ZONE = "America/Chicago";
export const SHORTEST_MIN = 60;
const MINUTE = 60_000;

/** A half-open stretch [start, end) in epoch ms. */
export interface Stretch {
  start: number;
  end: number;
}

/** One expected board row: a worker and one bookable stretch. */
export interface Window extends Stretch {
  worker: string;
  first_name: unknown;
  last_name: unknown;
}

/** 06:00 to 12:00 on `date` in Chicago, as instants; null for a date that is not YYYY-MM-DD. */
export function morningOf(date: string): Stretch | null {
  const from = localToUnixS(`${date} 06:00`, ZONE);
  const until = localToUnixS(`${date} 12:00`, ZONE);
  return from === null || until === null ? null : { start: from * 1000, end: until * 1000 };
}

/** Minutes Chicago is ahead of UTC on the morning of `date` (negative: behind). */
export function morningOffsetMinutes(date: string): number {
  const m = morningOf(date)!;
  return Math.round((Date.parse(`${date}T06:00:00Z`) - m.start) / MINUTE);
}

function merge(spans: Stretch[]): Stretch[] {
  const out: Stretch[] = [];
  for (const s of [...spans].filter((x) => x.end > x.start).sort((a, b) => a.start - b.start)) {
    const last = out.at(-1);
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

function minus(spans: Stretch[], cut: Stretch): Stretch[] {
  return spans.flatMap((s) =>
    cut.end <= s.start || cut.start >= s.end
      ? [s]
      : [
          { start: s.start, end: cut.start },
          { start: cut.end, end: s.end },
        ].filter((p) => p.end > p.start),
  );
}

/** Live calendar entries of one kind as stretches per worker; `keep` filters records. */
function entries(s: Snapshot, entity: string, keep: (r: Record<string, unknown>) => boolean = () => true): Map<string, Stretch[]> {
  const out = new Map<string, Stretch[]>();
  for (const { record, deleted } of s.entities[entity] ?? []) {
    if (deleted || !keep(record)) continue;
    const start = Date.parse(String(record.starts_at));
    const d = record.duration_minutes;
    const end = d === null || d === undefined ? Number.POSITIVE_INFINITY : start + Number(d) * MINUTE;
    const w = String(record.worker_id);
    out.set(w, [...(out.get(w) ?? []), { start, end }]);
  }
  return out;
}

/** Every bookable stretch of the morning, sorted by worker then start. */
export function expectedBoard(s: Snapshot, morning: Stretch): Window[] {
  const avail = entries(s, "availability");
  const blocks = entries(s, "block");
  const booked = entries(s, "booking", (r) => r.status === "held" || r.status === "booked");
  const out: Window[] = [];
  const workers = (s.entities.worker ?? []).filter((w) => !w.deleted && w.record.onboarding_status === "active");
  for (const { id, record } of workers) {
    let free = merge(avail.get(id) ?? [])
      .map((x) => ({ start: Math.max(x.start, morning.start), end: Math.min(x.end, morning.end) }))
      .filter((x) => x.end > x.start);
    for (const cut of [...(blocks.get(id) ?? []), ...(booked.get(id) ?? [])]) free = minus(free, cut);
    for (const f of free) if (f.end - f.start >= SHORTEST_MIN * MINUTE) out.push({ worker: id, first_name: record.first_name, last_name: record.last_name, ...f });
  }
  return out.sort((a, b) => (a.worker !== b.worker ? (a.worker < b.worker ? -1 : 1) : a.start - b.start));
}
