import { defineTask } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { byLabel, fewIds, outputRows, plumbing } from "../shared/judging.ts";
import { csvRows } from "../../schema/output-contract.ts";
import { z } from "zod";
import timesheets from "./timesheets-key.json" with { type: "json" };

const ROLE = "book";
const REPORT = "fee_close.csv";
const HEADER = ["placement_id", "currency", "approved_hours", "hourly_bill_rate", "agency_fee_bps", "fee_cents", "outcome", "note_id"];
const AUTHOR = "Finance close";
const VISIBILITY = "agency";

/**
 * Faults of close day (declared in declarations/vendors/placemint.ts): every token is revoked
 * after a few requests, the quota closes early for a burst, the first answer after the export
 * is requested (its first status read) is cut off mid-body, and the first note PlaceMint
 * commits answers 500.
 */
export const CLOSE_FAULTS = ["pm-tokens-revoked", "pm-burst-429", "pm-export-poll-reset", "pm-note-500-after-commit"];

/** One Tallybook timesheet (`timesheets-key.json`: columns of repo/input/tallybook-q1-timesheets.csv). */
export interface Timesheet {
  timesheet_id: string;
  placement: string;
  week_ending: string;
  hours: string;
  status: string;
}
export const TIMESHEETS: readonly Timesheet[] = timesheets;

const ReportRow = z.looseObject(Object.fromEntries(HEADER.map((h) => [h, z.string()])));
type ReportRow = Record<string, string>;

/** A decimal number of hours as hundredths (a report writes at most two decimals). */
const hundredths = (hours: string) => Math.round(Number(hours) * 100);

/**
 * A timesheet's time as hundredths of an hour. Tallybook's web app writes decimal hours (`37.5`),
 * its mobile app hours and minutes (`37:30`); the export's minutes are whole quarter hours.
 */
export function timesheetHundredths(hours: string): number {
  const hm = /^(\d+):(\d{2})$/.exec(hours);
  return hm ? Number(hm[1]) * 100 + (Number(hm[2]) * 100) / 60 : hundredths(hours);
}

/** Tallybook's `Placement` as the PlaceMint id it is: some timesheets drop the number's leading zeros (`plc_7` is `plc_000007`). */
export const placementId = (raw: string) => raw.trim().replace(/^plc_(\d{1,6})$/, (_, n: string) => `plc_${n.padStart(6, "0")}`);

/** The quarter the fee is for: a timesheet counts in the quarter its week ends in. */
export const inQuarter = (weekEnding: string) => weekEnding >= "2025-01-01" && weekEnding <= "2025-03-31";

/** Approved hours of the quarter per placement, in hundredths of an hour. */
export function approvedHundredths(): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of TIMESHEETS)
    if (t.status === "approved" && inQuarter(t.week_ending)) {
      const id = placementId(t.placement);
      out.set(id, (out.get(id) ?? 0) + timesheetHundredths(t.hours));
    }
  return out;
}

/** The fee in cents: hours x rate x bps / 10000, to the nearest cent, halves up (exact in integers). */
export function feeCents(hoursHundredths: number, rateCents: number, bps: number): number {
  const num = hoursHundredths * rateCents * bps;
  const den = 100 * 10_000;
  return Math.floor((2 * num + den) / (2 * den));
}

export const feeBody = (currency: string, cents: number) => `Q1 2025 agency fee: ${currency} ${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")} (fee-close 2025-Q1)`;

interface Expected {
  placement_id: string;
  hundredths: number;
  inBook: boolean;
  currency: string;
  rate: number;
  bps: number;
  fee: number;
}

/** What the ticket's rule gives for PlaceMint's state at `s`, by placement. */
function expected(s: Snapshot): Expected[] {
  const book = new Map<string, SnapshotRecord>((s.entities.placement ?? []).filter((p) => !p.deleted).map((p) => [p.id, p]));
  return [...approvedHundredths()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([id, h]) => {
      const p = book.get(id);
      const rate = Number(p?.record.hourly_bill_rate);
      const bps = Number(p?.record.agency_fee_bps);
      return { placement_id: id, hundredths: h, inBook: !!p, currency: String(p?.record.currency ?? ""), rate, bps, fee: p ? feeCents(h, rate, bps) : 0 };
    });
}

const rowsOf = (run: ConnectorRun | undefined): ReportRow[] =>
  (outputRows<unknown>(run, REPORT) ?? []).flatMap((r) => {
    const row = ReportRow.safeParse(r).data as ReportRow | undefined;
    return row ? [row] : [];
  });

/** Notes PlaceMint holds at `now` that it did not hold at `start`, by placement. */
function newNotes(start: Snapshot, now: Snapshot): Map<string, SnapshotRecord[]> {
  const existed = new Set((start.entities.note ?? []).map((n) => n.id));
  const out = new Map<string, SnapshotRecord[]>();
  for (const n of now.entities.note ?? []) {
    if (existed.has(n.id)) continue;
    const pid = String(n.record.placement_id);
    out.set(pid, [...(out.get(pid) ?? []), n]);
  }
  return out;
}

/** Report rows against the rule and the notes PlaceMint holds: what is wrong, by placement. */
function reportProblems(rows: ReportRow[], want: Expected[], notes: Map<string, SnapshotRecord[]>): string[] {
  const got = new Map(rows.map((r) => [r.placement_id, r]));
  const wrong: string[] = [];
  for (const w of want) {
    const r = got.get(w.placement_id);
    if (!r) {
      wrong.push(`${w.placement_id} missing`);
      continue;
    }
    const note = notes.get(w.placement_id)?.[0];
    const hoursOk = /^\s*\d+(\.\d+)?\s*$/.test(r.approved_hours) && hundredths(r.approved_hours) === w.hundredths;
    const fields = w.inBook
      ? { currency: w.currency, hourly_bill_rate: String(w.rate), agency_fee_bps: String(w.bps), fee_cents: String(w.fee), outcome: "fee_noted", note_id: note?.id ?? "(the fee note)" }
      : { currency: "", hourly_bill_rate: "", agency_fee_bps: "", fee_cents: "", outcome: "not_in_book", note_id: "" };
    const bad = Object.entries(fields).filter(([k, v]) => r[k] !== v);
    if (!hoursOk) bad.push(["approved_hours", String(w.hundredths / 100)]);
    if (bad.length) wrong.push(`${w.placement_id} (${bad.map(([k, v]) => `${k} ${JSON.stringify(r[k])}, want ${JSON.stringify(v)}`).join(", ")})`);
  }
  const extra = rows.filter((r) => !want.some((w) => w.placement_id === r.placement_id)).map((r) => r.placement_id);
  const sorted = rows.every((r, i) => i === 0 || rows[i - 1].placement_id < r.placement_id);
  return [
    wrong.length && `${wrong.length} of ${want.length} rows wrong: ${wrong.slice(0, 3).join("; ")}`,
    extra.length && `${extra.length} rows for placements without approved hours (${fewIds(extra)})`,
    !sorted && "not sorted by placement_id (or a placement repeated)",
  ].filter((p): p is string => typeof p === "string");
}

function judgeClose(e: ScenarioEvidence, c: CheckRecorder): void {
  const first = byLabel(e, "close");
  if (!plumbing(c, "close_exit_ok", first, [REPORT], { ticket: "`close` exits 0 when every placement has been dealt with" })) return;
  const before = e.snapshots.before[ROLE];
  const after = e.snapshots.after[ROLE];
  const want = expected(before);
  const noted = want.filter((w) => w.inBook);
  const added = newNotes(before, after);

  const unnoted: string[] = [];
  const twice: string[] = [];
  const wrongNote: string[] = [];
  for (const w of noted) {
    const notes = added.get(w.placement_id) ?? [];
    if (!notes.length) unnoted.push(w.placement_id);
    if (notes.length > 1) twice.push(`${w.placement_id} x${notes.length}`);
    const n = notes[0];
    if (n && (n.record.body !== feeBody(w.currency, w.fee) || n.record.author !== AUTHOR || n.record.visibility !== VISIBILITY)) wrongNote.push(w.placement_id);
  }
  c.check("fee_notes_once_and_right", noted.length > 0 && !unnoted.length && !twice.length && !wrongNote.length, {
    basis: { ticket: "One fee note per placement for the quarter: never two, whatever happens on the way, and a rerun of the close adds nothing." },
    pass: 2,
    mandatory: true,
    level: "l3",
    detail:
      [
        unnoted.length && `${unnoted.length} placements without their fee note (${fewIds(unnoted)})`,
        twice.length && `${twice.length} with more than one (${fewIds(twice)})`,
        wrongNote.length && `${wrongNote.length} fee notes with the wrong body, author or visibility (${fewIds(wrongNote)})`,
      ]
        .filter(Boolean)
        .join("; ") || `${noted.length} placements, one correct fee note each`,
  });

  const notedIds = new Set(noted.map((w) => w.placement_id));
  const intruded = [...added.keys()].filter((pid) => !notedIds.has(pid));
  const changed = (before.entities.placement ?? []).filter((p) => JSON.stringify((after.entities.placement ?? []).find((q) => q.id === p.id)) !== JSON.stringify(p));
  c.check("nothing_else_written", !intruded.length && !changed.length, {
    basis: { ticket: "Nothing else is written to PlaceMint." },
    pass: 1,
    mandatory: true,
    detail:
      [intruded.length && `notes on ${intruded.length} placements that get none (${fewIds(intruded)})`, changed.length && `${changed.length} placements changed (${fewIds(changed.map((p) => p.id))})`]
        .filter(Boolean)
        .join("; ") || "only the fee notes were written",
  });

  const problems = reportProblems(rowsOf(first), want, added);
  c.check("fee_report_true", problems.length === 0, {
    basis: { ticket: "`fee_close.csv` agrees with PlaceMint and Tallybook" },
    pass: 2,
    mandatory: true,
    detail: problems.join("; ") || `${want.length} placements with approved hours, ${noted.length} noted, ${want.length - noted.length} not in the book`,
  });

  const rerun = byLabel(e, "rerun");
  if (!plumbing(c, "rerun_exit_ok", rerun, [REPORT], { ticket: "`close` exits 0 when every placement has been dealt with" })) return;
  const again = [...newNotes(after, e.snapshots.rerun[ROLE]).values()].flat();
  c.check("rerun_adds_nothing", again.length === 0, {
    basis: { ticket: "a rerun of the close adds nothing." },
    pass: 1,
    mandatory: true,
    detail: again.length ? `the rerun wrote ${again.length} notes (${fewIds(again.map((n) => String(n.record.placement_id)))})` : "the rerun wrote nothing",
  });
  const rerunProblems = reportProblems(rowsOf(rerun), want, added);
  c.check("rerun_report_names_first_notes", rerunProblems.length === 0, {
    basis: { ticket: "`note_id` is the id of the placement's fee note in PlaceMint (on a rerun too: the note filed by the first run)" },
    pass: 1,
    detail: rerunProblems.join("; ") || "the rerun's report names the notes of the first run",
  });
}

export default defineTask({
  id: "task-0031",
  title: "PlaceMint quarter close: join Tallybook hours with the fee statement export, one fee note per placement",
  kind: "build",
  roles: { [ROLE]: { vendor: "placemint", checkpoint: 1 } },
  seed: 1,
  docsProfile: "true",
  surfaces: ["polling", "writeback"],
  primaryMechanic: "two_file_join_before_upsert",
  entry: { command: ["node", "src/main.ts"], subcommands: ["close"] },
  outputs: { [REPORT]: csvRows(HEADER, ReportRow) },
  timeLimitS: 60,
  scenarios: [{ name: "quarter_close", judge: (e, c) => judgeClose(e, c) }],
  conduct: {
    no_credentials_in_query_string: "Keep credentials out of URLs",
    no_secrets_echoed_to_vendor: "Keep credentials out of URLs",
    token_reused_not_reminted: "reuse an access token for as long as it lasts",
    retry_after_honored: "wait as long as PlaceMint asks when it asks us to slow down",
    no_hot_loop_on_error: "do not hammer an endpoint that is failing",
    idempotent_write_retries: "One fee note per placement for the quarter: never two, whatever happens on the way, and a rerun of the close adds nothing.",
  },
});
