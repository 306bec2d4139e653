import { z } from "zod";
import { defineTask } from "../../schema/task.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import { byLabel, fewIds, outputRows, plumbing } from "../shared/judging.ts";
import { objects } from "../shared/rows.ts";

export const ROLE = "rota";
/** Faults the scenario arms (declared in declarations/vendors/rosterly.ts). */
export const SESSION_REVOKED = "rl-token-revoked";
export const NOTE_LOST = "rl-note-504-after-commit";
export const SHIFTS_PAGE_FAULT = "rl-shifts-500-page-3";
/** Staff files change while the job reads them: the workers list moves under an offset crawl. */
export const WORKERS_DRIFT = "rl-workers-drift";
/** The rota moves while TimeClockService's ListShifts is paged (the newest shifts move to the head at the service's second call). */
export const SHIFTS_DRIFT = "rl-soap-shifts-drift";
/** The load balancer drops a connection part-way through an answer while the notes are filed (a note's answer cut off after the note is filed). */
export const NOTE_ANSWER_CUT = "rl-notes-answer-reset";
/** Monday's run meets the rota after its tidy-up: shifts entered by mistake are deleted (declarations/vendors/rosterly.ts timeline). */
export const PAY_RUN = 5;

const FILE = "timesheet.json";
/** The pay week, Monday to Sunday, as calendar days at each venue. */
export const WEEK = ["2025-10-20", "2025-10-21", "2025-10-22", "2025-10-23", "2025-10-24", "2025-10-25", "2025-10-26"] as const;
/** A day over this many minutes at one venue gets a note. */
const LONG_DAY = 480;

const RUN_OK = "`node src/main.ts timesheet` exits 0 once `timesheet.json` is written under `OUTPUT_DIR` and every note below is on its worker's file.";
const RIGHT = "The timesheet holds every minute of the pay week's completed shifts, each on the right day, and nothing else.";
const AGENCY = "Agency staff (`agency` in the `employment_type` on their Rosterly file) are paid by their agency, not by our bureau: their shifts are not on the timesheet.";
const NOTE = "For each such row of the timesheet, put one note on the worker's Rosterly file, visible to managers only, whose text is exactly:";
const ONCE = "Each long day gets its note once, whatever happens on the way and however often the job runs; write no other notes.";
const SOAP_ONLY = "read the rota through TimeClockService only";
const WAIT = "When Rosterly asks us to wait, wait as long as it asks";

export interface TimesheetRow {
  worker_id: string;
  date: string;
  venue_id: string;
  minutes: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at an instant, in milliseconds (one formatter per zone: judges run it for every shift). */
function offsetMs(instantMs: number, timeZone: string): number {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
    formats.set(timeZone, f);
  }
  const parts = f.formatToParts(new Date(instantMs));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second")) - instantMs;
}

/** Unix seconds of a wall-clock `YYYY-MM-DDTHH:MM` in a zone, through the zone's rules on that date; null when it is not one. */
function wallToUnixS(local: string, timeZone: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})$/.exec(local);
  if (!m) return null;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  try {
    const first = wall - offsetMs(wall, timeZone);
    return (wall - offsetMs(first, timeZone)) / 1000;
  } catch {
    return null;
  }
}

const computed = new WeakMap<Snapshot, TimesheetRow[]>();

/** Workers whose Rosterly file says an agency engages them (deleted files included: their shifts are still theirs). */
export function agencyStaff(s: Snapshot): Set<string> {
  return new Set((s.entities.worker ?? []).filter((r) => r.record.employment_type === "agency").map((r) => r.id));
}

const nextDay = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * The pay week's timesheet from Rosterly's shifts: completed, live shifts,
 * each `duration_minutes` of real time from its wall-clock start at the venue,
 * split at the venue's midnight. A start in a repeated fall-back hour resolves
 * to either instant with the same split (no shift reaches the next midnight from there).
 */
export function expectedTimesheet(s: Snapshot): TimesheetRow[] {
  const known = computed.get(s);
  if (known) return known;
  const week = new Set<string>(WEEK);
  const sums = new Map<string, TimesheetRow>();
  const add = (worker: string, date: string, venue: string, minutes: number) => {
    if (!week.has(date) || minutes <= 0) return;
    const key = `${worker}|${date}|${venue}`;
    const row = sums.get(key) ?? { worker_id: worker, date, venue_id: venue, minutes: 0 };
    row.minutes += minutes;
    sums.set(key, row);
  };
  const agency = agencyStaff(s);
  for (const r of s.entities.shift ?? []) {
    const x = r.record;
    if (r.deleted || x.status !== "completed" || agency.has(String(x.worker_id))) continue;
    const local = String(x.starts_at ?? "");
    const tz = String(x.venue_tz ?? "");
    const date = local.slice(0, 10);
    const start = wallToUnixS(local.slice(0, 16), tz);
    const midnight = wallToUnixS(`${nextDay(date)} 00:00`, tz);
    if (start === null || midnight === null) continue;
    const total = Number(x.duration_minutes);
    const first = Math.min(total, Math.round((midnight - start) / 60));
    add(String(x.worker_id), date, String(x.venue_id), first);
    add(String(x.worker_id), nextDay(date), String(x.venue_id), total - first);
  }
  const rows = [...sums.values()].sort((a, b) => (a.worker_id < b.worker_id ? -1 : a.worker_id > b.worker_id ? 1 : a.date < b.date ? -1 : a.date > b.date ? 1 : a.venue_id < b.venue_id ? -1 : 1));
  computed.set(s, rows);
  return rows;
}

/** The note a long day asks for, as the ticket words it. */
export const noteText = (r: TimesheetRow): string => `Long day: ${r.minutes} minutes at ${r.venue_id} on ${r.date} (pay week ${WEEK[0]})`;

const rowKey = (r: TimesheetRow) => `${r.worker_id} ${r.date} ${r.venue_id} ${r.minutes}`;

function judgeTimesheet(c: CheckRecorder, name: string, run: ConnectorRun, truth: Snapshot): void {
  const rows = objects(outputRows<TimesheetRow>(run, FILE));
  const want = expectedTimesheet(truth);
  const got = rows.map((r) => rowKey(r as TimesheetRow));
  const expected = want.map(rowKey);
  const missing = expected.filter((k) => !got.includes(k));
  const extra = got.filter((k) => !expected.includes(k));
  const ordered = got.length === expected.length && got.every((k, i) => k === expected[i]);
  const ok = !missing.length && !extra.length && ordered;
  c.check(name, ok, {
    basis: { ticket: RIGHT },
    pass: 2,
    mandatory: true,
    level: "l1",
    detail: ok
      ? `${want.length} rows (${want.reduce((n, r) => n + r.minutes, 0)} minutes), each on its venue's day`
      : [
          missing.length && `${missing.length} rows missing or wrong (${fewIds(missing)})`,
          extra.length && `${extra.length} rows not expected (${fewIds(extra)})`,
          !missing.length && !extra.length && "rows not in the order asked",
        ]
          .filter(Boolean)
          .join("; "),
  });
}

/** No row of the timesheet is an agency worker's. */
function judgeAgency(c: CheckRecorder, run: ConnectorRun, truth: Snapshot): void {
  const agency = agencyStaff(truth);
  const theirs = objects(outputRows<TimesheetRow>(run, FILE)).filter((r) => agency.has(String((r as TimesheetRow).worker_id)));
  const workers = [...new Set(theirs.map((r) => String((r as TimesheetRow).worker_id)))];
  c.check("agency_staff_left_off", workers.length === 0, {
    basis: { ticket: AGENCY },
    mandatory: true,
    level: "l2",
    detail: workers.length ? `${theirs.length} rows of ${workers.length} agency workers (${fewIds(workers)})` : `no row of the ${agency.size} agency workers`,
  });
}

/** Notes created since `before`: worker and text of each. */
function newNotes(before: Snapshot, after: Snapshot): { worker: string; body: string; visibility: string }[] {
  const had = new Set((before.entities.note ?? []).map((r) => r.id));
  return (after.entities.note ?? [])
    .filter((r) => !had.has(r.id) && !r.deleted)
    .map((r) => ({ worker: String(r.record.worker_id), body: String(r.record.body), visibility: String(r.record.visibility) }));
}

/** Every long day's note once on its worker's file, managers only, and no other note. */
function judgeNotes(c: CheckRecorder, name: string, before: Snapshot, after: Snapshot, ticket: string): void {
  const long = expectedTimesheet(before).filter((r) => r.minutes > LONG_DAY);
  const notes = newNotes(before, after);
  const problems: string[] = [];
  for (const r of long) {
    const mine = notes.filter((n) => n.worker === r.worker_id && n.body === noteText(r));
    if (mine.length !== 1) problems.push(`${r.worker_id} ${r.date}: ${mine.length} notes`);
    else if (mine[0].visibility !== "managers") problems.push(`${r.worker_id} ${r.date}: visible to ${mine[0].visibility}`);
  }
  const wanted = new Set(long.map((r) => `${r.worker_id} ${noteText(r)}`));
  const other = notes.filter((n) => !wanted.has(`${n.worker} ${n.body}`));
  if (other.length) problems.push(`${other.length} other notes (${fewIds(other.map((n) => `${n.worker} ${JSON.stringify(n.body)}`))})`);
  c.check(name, problems.length === 0, {
    basis: { ticket },
    pass: 2,
    mandatory: true,
    level: "l3",
    detail: problems.length ? problems.join("; ") : `${long.length} long days, one note each`,
  });
}

/** No REST read of the rota (shifts, punches): TimeClockService is the free way in. */
function judgeSoapOnly(c: CheckRecorder, e: ScenarioEvidence): void {
  const rest = (e.requests[ROLE] ?? []).filter((r) => r.method === "GET" && /^\/api\/v3\/(shifts|punches)(\/|$)/.test(r.path));
  c.check("rota_read_through_timeclockservice", rest.length === 0, {
    basis: { ticket: SOAP_ONLY },
    mandatory: true,
    level: "l2",
    detail: rest.length ? `${rest.length} REST reads of the rota (${fewIds(rest.map((r) => `#${r.seq} ${r.path}`))})` : "the rota was read through TimeClockService only",
  });
}

export default defineTask({
  id: "task-0045",
  title: "Harbour & Vine's weekly timesheet from Rosterly's TimeClockService, split at each venue's midnight, with long-day notes written once",
  kind: "build",
  roles: { [ROLE]: { vendor: "rosterly", checkpoint: PAY_RUN } },
  seed: 45,
  docsProfile: "true",
  surfaces: ["polling", "writeback"],
  primaryMechanic: "midnight_split_timesheet_bridge",
  entry: { command: ["node", "src/main.ts"], subcommands: ["timesheet"] },
  outputs: {
    [FILE]: jsonRows(z.looseObject({ worker_id: z.string(), date: z.string(), venue_id: z.string(), minutes: z.number().int() })),
  },
  timeLimitS: 45,
  scenarios: [
    {
      // Monday's run through an ended session and a note whose answer is lost; then Gareth runs it again.
      name: "pay_week",
      judge: (e, c) => {
        const before = e.snapshots.before[ROLE];
        judgeSoapOnly(c, e);
        const first = byLabel(e, "timesheet");
        if (plumbing(c, "timesheet_exit_ok", first, [FILE], { ticket: RUN_OK })) {
          judgeTimesheet(c, "timesheet_right", first!, before);
          judgeAgency(c, first!, before);
          judgeNotes(c, "long_day_notes_written", before, e.snapshots.after[ROLE], NOTE);
        }
        const rerun = byLabel(e, "rerun");
        if (!plumbing(c, "rerun_exit_ok", rerun, [FILE], { ticket: RUN_OK })) return;
        judgeTimesheet(c, "rerun_timesheet_right", rerun!, before);
        judgeNotes(c, "long_day_notes_once", before, e.snapshots.after_rerun[ROLE], ONCE);
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "Keep the API user's password out of URLs.",
    no_secrets_echoed_to_vendor: "Keep the API user's password out of URLs.",
    retry_after_honored: WAIT,
    no_hot_loop_on_error: "do not hammer a failing call",
  },
});
