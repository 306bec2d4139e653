import { defineTask } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { byLabel, fewIds, outputRows, plumbing } from "../shared/judging.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { z } from "zod";

const ROLE = "book";
const REPORT = "chase_report.json";
const CUT_OFF = Date.parse("2025-01-01T00:00:00Z");
const IN_SCOPE = new Set(["confirmed", "active"]);
const AUTHOR = "Delivery desk";
const VISIBILITY = "agency";

/**
 * Faults of the sweep's day (declared in declarations/vendors/placemint.ts): the notes feed
 * moves under the crawl (the newest notes jump to its head after the third read), every token
 * is revoked early, and the first chase note PlaceMint commits answers 500.
 */
export const SWEEP_FAULTS = ["pm-notes-shuffle", "pm-tokens-revoked", "pm-note-500-after-commit"];

const ReportRow = z.looseObject({
  placement_id: z.string(),
  client_id: z.string(),
  status: z.string(),
  last_contact_at: z.string().nullable(),
  last_note_id: z.string().nullable(),
  stalled: z.boolean(),
  chase_note_id: z.string().nullable(),
});
type ReportRow = z.infer<typeof ReportRow>;

/** What the ticket's rule says about one in-scope placement. */
interface Expected {
  placement_id: string;
  client_id: string;
  status: string;
  last_contact_at: string | null;
  last_note_id: string | null;
  stalled: boolean;
}

const str = (v: unknown) => (typeof v === "string" ? v : "");

/** Each placement's newest live note in a snapshot: latest `created_at`, then the greater id. */
function lastContacts(s: Snapshot): Map<string, SnapshotRecord> {
  const last = new Map<string, SnapshotRecord>();
  for (const n of s.entities.note ?? []) {
    if (n.deleted) continue;
    const pid = str(n.record.placement_id);
    const have = last.get(pid);
    const t = Date.parse(str(n.record.created_at));
    const h = have ? Date.parse(str(have.record.created_at)) : Number.NEGATIVE_INFINITY;
    if (!have || t > h || (t === h && n.id > have.id)) last.set(pid, n);
  }
  return last;
}

/** The rule applied to PlaceMint's state at `s`: one entry per in-scope placement, sorted by id. */
function expected(s: Snapshot): Expected[] {
  const last = lastContacts(s);
  return (s.entities.placement ?? [])
    .filter((p) => !p.deleted && IN_SCOPE.has(str(p.record.status)))
    .map((p) => {
      const n = last.get(p.id);
      const at = n ? str(n.record.created_at) : null;
      return {
        placement_id: p.id,
        client_id: str(p.record.client_id),
        status: str(p.record.status),
        last_contact_at: at,
        last_note_id: n?.id ?? null,
        stalled: at === null || Date.parse(at) < CUT_OFF,
      };
    })
    .sort((a, b) => (a.placement_id < b.placement_id ? -1 : 1));
}

/** Notes PlaceMint holds at `now` that it did not hold at `start`, by placement. */
function newNotes(start: Snapshot, now: Snapshot): Map<string, SnapshotRecord[]> {
  const existed = new Set((start.entities.note ?? []).map((n) => n.id));
  const out = new Map<string, SnapshotRecord[]>();
  for (const n of now.entities.note ?? []) {
    if (existed.has(n.id)) continue;
    const pid = str(n.record.placement_id);
    out.set(pid, [...(out.get(pid) ?? []), n]);
  }
  return out;
}

const chaseBody = (e: Expected) => (e.last_contact_at === null ? "Chase-up: no contact on record." : `Chase-up: no contact since ${e.last_contact_at}.`);

const rowsOf = (run: ConnectorRun | undefined): ReportRow[] => (outputRows<unknown>(run, REPORT) ?? []).flatMap((r) => ReportRow.safeParse(r).data ?? []);

/** The report's rows against the rule (everything but `chase_note_id`): missing, unexpected and wrong rows, and the order. */
function reportProblems(rows: ReportRow[], want: Expected[]): string[] {
  const byId = new Map(want.map((w) => [w.placement_id, w]));
  const got = new Map(rows.map((r) => [r.placement_id, r]));
  const missing = want.filter((w) => !got.has(w.placement_id)).map((w) => w.placement_id);
  const extra = rows.filter((r) => !byId.has(r.placement_id)).map((r) => r.placement_id);
  const wrong: string[] = [];
  for (const r of rows) {
    const w = byId.get(r.placement_id);
    if (!w) continue;
    const fields = (["client_id", "status", "last_contact_at", "last_note_id", "stalled"] as const).filter((f) => r[f] !== w[f]);
    if (fields.length) wrong.push(`${r.placement_id} (${fields.map((f) => `${f} ${JSON.stringify(r[f])}, want ${JSON.stringify(w[f])}`).join(", ")})`);
  }
  const sorted = rows.every((r, i) => i === 0 || rows[i - 1].placement_id < r.placement_id);
  return [
    missing.length && `${missing.length} in-scope placements missing (${fewIds(missing)})`,
    extra.length && `${extra.length} rows for placements out of scope (${fewIds(extra)})`,
    rows.length !== new Set(rows.map((r) => r.placement_id)).size && "placements repeated",
    wrong.length && `${wrong.length} rows wrong: ${wrong.slice(0, 3).join("; ")}`,
    !sorted && "not sorted by placement_id",
  ].filter((p): p is string => typeof p === "string");
}

function judgeSweep(e: ScenarioEvidence, c: CheckRecorder): void {
  const first = byLabel(e, "sweep");
  if (!plumbing(c, "sweep_exit_ok", first, [REPORT], { ticket: "`sweep` exits 0 when every in-scope placement has been dealt with" })) return;
  const before = e.snapshots.before[ROLE];
  const after = e.snapshots.after[ROLE];
  const want = expected(before);
  const stalled = want.filter((w) => w.stalled);
  const rows = rowsOf(first);

  const problems = reportProblems(rows, want);
  c.check("report_true_to_placemint", problems.length === 0 && want.length > 0, {
    basis: { ticket: "`last_contact_at` and `last_note_id` are the placement's last contact as it stood when the sweep started" },
    pass: 2,
    mandatory: true,
    detail: problems.length ? problems.join("; ") : `${want.length} in-scope placements, ${stalled.length} stalled, each reported as PlaceMint holds it`,
  });

  const added = newNotes(before, after);
  const unchased: string[] = [];
  const twice: string[] = [];
  const wrongNote: string[] = [];
  for (const w of stalled) {
    const notes = added.get(w.placement_id) ?? [];
    if (notes.length === 0) unchased.push(w.placement_id);
    if (notes.length > 1) twice.push(`${w.placement_id} x${notes.length}`);
    const n = notes[0];
    if (n && (n.record.body !== chaseBody(w) || n.record.author !== AUTHOR || n.record.visibility !== VISIBILITY)) wrongNote.push(w.placement_id);
  }
  const stalledIds = new Set(stalled.map((w) => w.placement_id));
  const intruded = [...added.keys()].filter((pid) => !stalledIds.has(pid));
  c.check("stalled_placements_chased_once", stalled.length > 0 && !unchased.length && !twice.length && !wrongNote.length, {
    basis: { ticket: "Each stalled placement gets exactly one chase-up note, whatever happens on the way (a retry, a lost answer, a rerun)." },
    pass: 2,
    mandatory: true,
    level: "l3",
    detail:
      [
        unchased.length && `${unchased.length} stalled placements got no chase note (${fewIds(unchased)})`,
        twice.length && `${twice.length} got more than one (${fewIds(twice)})`,
        wrongNote.length && `${wrongNote.length} chase notes with the wrong body, author or visibility (${fewIds(wrongNote)})`,
      ]
        .filter(Boolean)
        .join("; ") || `${stalled.length} stalled placements, one chase note each`,
  });

  const placementsChanged = (before.entities.placement ?? []).filter((p) => {
    const now = (after.entities.placement ?? []).find((q) => q.id === p.id);
    return JSON.stringify(now) !== JSON.stringify(p);
  });
  c.check("nothing_else_written", !intruded.length && !placementsChanged.length, {
    basis: { ticket: "Nothing else is written to PlaceMint: no note on a placement that is not stalled, and no change to any placement." },
    pass: 2,
    mandatory: true,
    detail:
      [
        intruded.length && `notes filed on ${intruded.length} placements that are not stalled (${fewIds(intruded)})`,
        placementsChanged.length && `${placementsChanged.length} placements changed (${fewIds(placementsChanged.map((p) => p.id))})`,
      ]
        .filter(Boolean)
        .join("; ") || "no note beyond the chase notes, no placement changed",
  });

  const wrongIds = stalled.flatMap((w) => {
    const notes = added.get(w.placement_id) ?? [];
    const row = rows.find((r) => r.placement_id === w.placement_id);
    return notes.length === 1 && row?.chase_note_id === notes[0].id ? [] : [w.placement_id];
  });
  const idOnQuiet = rows.filter((r) => !stalledIds.has(r.placement_id) && r.chase_note_id !== null).map((r) => r.placement_id);
  c.check("chase_note_ids_true", stalled.length > 0 && !wrongIds.length && !idOnQuiet.length, {
    basis: { ticket: "`chase_note_id` is the id PlaceMint gave the chase-up note filed for this placement" },
    pass: 1,
    mandatory: true,
    level: "l3",
    detail:
      [
        wrongIds.length && `${wrongIds.length} stalled placements whose chase_note_id is not the note PlaceMint holds (${fewIds(wrongIds)})`,
        idOnQuiet.length && `${idOnQuiet.length} rows name a chase note the sweep did not file (${fewIds(idOnQuiet)})`,
      ]
        .filter(Boolean)
        .join("; ") || `${stalled.length} chase note ids match PlaceMint`,
  });

  const rerun = byLabel(e, "rerun");
  if (!plumbing(c, "rerun_exit_ok", rerun, [REPORT], { ticket: "`sweep` exits 0 when every in-scope placement has been dealt with" })) return;
  const final = e.snapshots.rerun[ROLE];
  const again = [...newNotes(after, final).values()].flat();
  c.check("rerun_files_nothing", again.length === 0, {
    basis: { ticket: "a rerun files nothing new." },
    pass: 1,
    mandatory: true,
    detail: again.length ? `the rerun filed ${again.length} notes (${fewIds(again.map((n) => str(n.record.placement_id)))})` : "the rerun filed nothing",
  });

  const rerunRows = rowsOf(rerun);
  const rerunProblems = reportProblems(rerunRows, expected(after));
  const claimed = rerunRows.filter((r) => r.chase_note_id !== null).map((r) => r.placement_id);
  c.check("rerun_report_true", !rerunProblems.length && !claimed.length, {
    basis: { ticket: "or `null` when the sweep filed none (not stalled, or chased by an earlier run)." },
    pass: 1,
    detail:
      [...rerunProblems, claimed.length && `${claimed.length} rows claim a chase note the rerun did not file (${fewIds(claimed)})`].filter(Boolean).join("; ") ||
      "the rerun's report shows every chased placement as contacted",
  });
}

export default defineTask({
  id: "task-0023",
  title: "PlaceMint contact sweep: chase-up notes on quiet placements, from an unordered notes feed",
  kind: "build",
  roles: { [ROLE]: { vendor: "placemint", checkpoint: 2 } },
  seed: 1,
  docsProfile: "true",
  surfaces: ["polling", "writeback"],
  primaryMechanic: "last_contact_recency_over_unordered_feed",
  entry: { command: ["node", "src/main.ts"], subcommands: ["sweep"] },
  outputs: { [REPORT]: jsonRows(ReportRow) },
  timeLimitS: 60,
  scenarios: [{ name: "quiet_placement_sweep", judge: (e, c) => judgeSweep(e, c) }],
  conduct: {
    no_credentials_in_query_string: "Keep credentials out of URLs",
    no_secrets_echoed_to_vendor: "Keep credentials out of URLs",
    token_reused_not_reminted: "reuse an access token for as long as it lasts",
    retry_after_honored: "wait as long as PlaceMint asks when it asks us to slow down",
    no_hot_loop_on_error: "do not hammer an endpoint that is failing",
    idempotent_write_retries: "Each stalled placement gets exactly one chase-up note, whatever happens on the way (a retry, a lost answer, a rerun).",
  },
});
