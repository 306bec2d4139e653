import { z } from "zod";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ScenarioEvidence } from "../../../evidence/verdict.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { defineTask } from "../../schema/task.ts";
import { commandsRanOk } from "../shared/command-runs.ts";
import { byLabel, fewIds, outputRows } from "../shared/judging.ts";
import { expectedBoard, morningOf, morningOffsetMinutes, type Window } from "./board-truth.ts";

export const ROLE = "crew";
/**
 * CrewCall seeded at twice its size: 360 availability posts, more than the 200 a page holds, so a
 * board read from one page of each calendar misses posts on both mornings of every graded seed.
 */
export const CALENDAR_SCALE = 2;
/**
 * CrewCall a checkpoint on (ten workers a step further through onboarding; no calendar entry
 * changes): on the task's seed and on two of its five other seeds a board holds a stretch made of
 * two posts that meet (board.test.ts).
 */
export const CALENDAR_CHECKPOINT = 1;
const FILE = "board.json";
/** The two mornings the drive asks for: a Tuesday on standard time, a Saturday still on daylight time. */
export const TUESDAY = "2023-11-07";
export const SATURDAY = "2023-11-04";
/** The fault armed for the Tuesday board (declared in declarations/vendors/crewcall.ts). */
export const BLOCKS_500 = "cc-board-blocks-500-first-page";
/**
 * Workers post availability while each board reads it: after the first page of availability the
 * newest posts move to the head of the list (declared in declarations/vendors/crewcall.ts), so a single
 * offset crawl meets some posts twice and steps over those, which changes a board of every graded seed
 * (board.test.ts).
 */
export const AVAILABILITY_DRIFT = "cc-board-availability-drift";
/**
 * The oldest ten offers still waiting for an answer have lapsed by the time each board reads the calendars: their bookings
 * are `expired` (the docs: it books nobody, the time is free again), which frees time on both mornings of the task's seed.
 */
export const OFFERS_LAPSED = "cc-board-offers-lapsed";
/** The snapshot both boards are judged against: the calendars once Tuesday's board has read them (the runs only read; the lapse lands on the first request). */
export const CALENDARS = "calendars";

const BoardRow = z.object({
  worker_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  window_start: z.string(),
  window_end: z.string(),
  minutes: z.number(),
});
type BoardRow = z.infer<typeof BoardRow>;

const BASES = {
  windows: { ticket: "`board.json` lists every stretch of that morning in which a worker can be booked, and nothing else" },
  fields: { ticket: "`minutes` is the stretch's length in minutes, and the names are the worker's as CrewCall has them." },
  local: { ticket: "Times are Chicago wall-clock time with the UTC offset in force on that date" },
  sorted: { ticket: "sorted by `worker_id`, then by `window_start`" },
};

const key = (worker: string, start: number, end: number) => `${worker} ${new Date(start).toISOString()}-${new Date(end).toISOString()}`;

/** The rows of a run's board that read as objects, with their instants. */
function rowsOf(e: ScenarioEvidence, label: string): { row: BoardRow; start: number; end: number }[] {
  return (outputRows<BoardRow>(byLabel(e, label), FILE) ?? [])
    .filter((r) => r && typeof r === "object")
    .map((row) => ({ row, start: Date.parse(String(row.window_start)), end: Date.parse(String(row.window_end)) }));
}

/** Every check of one morning's board against the calendars as the world started. */
function judgeBoard(c: CheckRecorder, e: ScenarioEvidence, prefix: string, label: string, date: string): void {
  if (!commandsRanOk(c, `${prefix}_board_ran`, e, [label], [FILE])) return;
  // Evidence sealed before the single snapshot was taken has one per run, of the same unchanged calendars.
  const want = expectedBoard((e.snapshots[CALENDARS] ?? e.snapshots[label])[ROLE], morningOf(date)!);
  const rows = rowsOf(e, label);
  const wantKeys = new Map<string, Window>(want.map((w) => [key(w.worker, w.start, w.end), w]));
  const got = rows.map((r) => (Number.isNaN(r.start) || Number.isNaN(r.end) ? `${r.row.worker_id} unreadable times` : key(String(r.row.worker_id), r.start, r.end)));
  const have = new Set(got);
  const missing = [...wantKeys.keys()].filter((k) => !have.has(k));
  const extra = [...have].filter((k) => !wantKeys.has(k));
  const repeated = got.length - have.size;
  const ok = !missing.length && !extra.length && !repeated;
  c.check(`${prefix}_windows_match`, ok, {
    basis: BASES.windows,
    pass: 2,
    fail: 0,
    mandatory: true,
    detail: ok
      ? `${want.length} stretches of ${new Set(want.map((w) => w.worker)).size} workers`
      : [missing.length && `${missing.length} missing (${fewIds(missing)})`, extra.length && `${extra.length} not bookable (${fewIds(extra)})`, repeated && `${repeated} repeated`]
          .filter(Boolean)
          .join("; "),
  });

  const matched = rows.filter((r) => wantKeys.has(key(String(r.row.worker_id), r.start, r.end)));
  const wrongFields = matched.filter((r) => {
    const w = wantKeys.get(key(String(r.row.worker_id), r.start, r.end))!;
    return r.row.minutes !== Math.round((w.end - w.start) / 60_000) || r.row.first_name !== w.first_name || r.row.last_name !== w.last_name;
  });
  c.check(`${prefix}_minutes_and_names`, matched.length > 0 && wrongFields.length === 0, {
    basis: BASES.fields,
    level: "l1",
    detail: matched.length
      ? `${wrongFields.length} of ${matched.length} matching rows with a wrong length or name${wrongFields.length ? ` (${fewIds(wrongFields.map((r) => r.row.worker_id))})` : ""}`
      : "no row matches a bookable stretch",
  });

  const offset = morningOffsetMinutes(date);
  const sign = offset < 0 ? "-" : "+";
  const suffix = `${sign}${String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0")}:${String(Math.abs(offset) % 60).padStart(2, "0")}`;
  const wallClock = (text: string, ms: number) => text.endsWith(suffix) && text.startsWith(new Date(ms + offset * 60_000).toISOString().slice(0, 16));
  const notLocal = matched.filter((r) => !wallClock(String(r.row.window_start), r.start) || !wallClock(String(r.row.window_end), r.end));
  c.check(`${prefix}_local_times`, matched.length > 0 && notLocal.length === 0, {
    basis: BASES.local,
    level: "l1",
    detail: matched.length ? `${notLocal.length} of ${matched.length} matching rows not written as Chicago time (${suffix})` : "no row matches a bookable stretch",
  });

  const sorted = rows.every((r, i) => {
    if (i === 0) return true;
    const p = rows[i - 1];
    const a = String(p.row.worker_id);
    const b = String(r.row.worker_id);
    return a < b || (a === b && p.start <= r.start);
  });
  c.check(`${prefix}_rows_sorted`, rows.length > 0 && sorted, { basis: BASES.sorted, level: "l1", detail: sorted ? `${rows.length} rows in order` : "rows out of order" });
}

export default defineTask({
  id: "task-0042",
  title: "CrewCall morning board: the stretches each cleared worker can still be booked, from availability, blocks and bookings",
  kind: "build",
  roles: { [ROLE]: { vendor: "crewcall", checkpoint: CALENDAR_CHECKPOINT, scale: CALENDAR_SCALE } },
  seed: 7,
  docsProfile: "true",
  surfaces: ["polling"],
  primaryMechanic: "composite_availability_windows",
  entry: { command: ["node", "src/main.ts"], subcommands: ["board"] },
  outputs: { [FILE]: jsonRows(BoardRow) },
  timeLimitS: 30,
  scenarios: [
    {
      // Tuesday's board (standard time) while the first page of blocks fails twice, then Saturday's (before the clocks went back: Chicago five hours behind UTC, not six);
      // workers post availability while each board reads it (the newest posts move to the head of the list after its first page).
      name: "two_mornings",
      judge: (e, c) => {
        judgeBoard(c, e, "tuesday", "tuesday", TUESDAY);
        judgeBoard(c, e, "saturday", "saturday", SATURDAY);
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "Credentials are in the environment",
    no_secrets_echoed_to_vendor: "Credentials are in the environment",
    retry_after_honored: "When CrewCall asks the job to wait, wait as long as it asks and carry on",
  },
});
