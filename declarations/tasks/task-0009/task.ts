import { defineTask, type JudgeContext } from "../../schema/task.ts";
import type { Vendor } from "../../schema/vendor.ts";
import type { CheckLevel, ConnectorRun, ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import { compareRows, expectedRows, fewIds, outputRows, plumbing, type MirrorRow, byLabel, mirrorOutputs } from "../shared/judging.ts";
import crm from "./repo/input/crm-notes.json" with { type: "json" };
import { jsonRows } from "../../schema/output-contract.ts";
import { z } from "zod";
import { objects } from "../shared/rows.ts";
import { judgeRerun } from "../shared/rerun.ts";
import { carriesNote, landedNotes, type NoteIntent, type NoteRefusal, noteRefusal } from "../shared/staffline-notes.ts";

export const ROLE = "ats";
const MIRROR = "candidates.json";
const RESULT = "note_import.json";
const WRITE = "createNote";
/** Faults the scenarios arm (declared in declarations/vendors/staffline.ts). */
export const LOST_ANSWER = "sl-note-500-after-commit";
export const WINDOW_429 = "sl-candidates-429-window";
export const MAINTENANCE = "sl-maintenance-midrun";
/** Exit code the ticket asks for when StaffLine wants us back later than we can wait. */
const EXIT_TRY_LATER = 75;

/** One row of the Relay CRM export the starter ships (`repo/input/crm-notes.json`). */
interface ExportRow {
  note_ref: string;
  revision: number;
  staffline_candidate_id: string;
  logged_by: string;
  logged_at: string;
  channel: string;
  body: string;
}

/** One row of note_import.json, as the ticket defines it. */
interface ResultRow {
  note_ref: unknown;
  candidate_id: unknown;
  written: unknown;
  staffline_note_id: unknown;
  reason: unknown;
}

/** Why a note is not written, in the ticket's order of precedence. */
type Reason = "candidate_deleted" | NoteRefusal;

const ROWS: ExportRow[] = crm.notes;

/** Each CRM note at its latest revision, by note_ref. */
const NOTES: ExportRow[] = (() => {
  const latest = new Map<string, ExportRow>();
  for (const r of ROWS) {
    const had = latest.get(r.note_ref);
    if (!had || r.revision > had.revision) latest.set(r.note_ref, r);
  }
  return [...latest.values()].sort((a, b) => (a.note_ref < b.note_ref ? -1 : 1));
})();

/** Texts of superseded revisions, by note_ref. */
const SUPERSEDED: Map<string, string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const n of NOTES) {
    const old = ROWS.filter((r) => r.note_ref === n.note_ref && r.revision < n.revision).map((r) => r.body);
    if (old.length) out.set(n.note_ref, old);
  }
  return out;
})();

const live = (s: Snapshot, entity: string): SnapshotRecord[] => (s.entities[entity] ?? []).filter((r) => !r.deleted);

/** The StaffLine note a CRM note asks for: on its candidate, its text, by its author. */
const intent = (n: ExportRow): NoteIntent => ({ candidateId: n.staffline_candidate_id, text: n.body, author: n.logged_by });
/** What StaffLine makes of a note: the first reason it is refused, or null when it takes it. */
const refusal = (vendor: Vendor, n: ExportRow, truth: Snapshot): Reason | null => noteRefusal(vendor, intent(n), truth, { write: WRITE, deletedCandidate: "candidate_deleted" });
/** Whether a StaffLine note carries a CRM note. */
const carries = (r: SnapshotRecord, n: ExportRow): boolean => carriesNote(r, intent(n));
/** Notes created since `before` that carry this CRM note. */
const landed = (n: ExportRow, before: Snapshot, after: Snapshot): SnapshotRecord[] => landedNotes(intent(n), before, after);

/** Every note StaffLine takes exists once, on its candidate, with its text and author. */
function judgeWrittenOnce(c: CheckRecorder, name: string, vendor: Vendor, before: Snapshot, after: Snapshot, level: CheckLevel): boolean {
  const wrong: string[] = [];
  let accepted = 0;
  for (const n of NOTES) {
    const want = refusal(vendor, n, before) === null ? 1 : 0;
    accepted += want;
    const have = landed(n, before, after).length;
    if (have !== want) wrong.push(`${n.note_ref}: ${have} notes${want ? "" : " (StaffLine refuses it)"}`);
  }
  return c.check(name, wrong.length === 0, {
    basis: { ticket: "One StaffLine note per CRM note: not zero times, not twice, whatever happens on the way." },
    pass: 2,
    mandatory: true,
    level,
    detail: wrong.length
      ? `${wrong.length} CRM notes are not in StaffLine exactly as often as they should be: ${fewIds(wrong)}`
      : `${accepted} notes written once each, ${NOTES.length - accepted} refused ones not at all`,
  });
}

/** The result file: one row per CRM note, sorted, each true to StaffLine. */
function judgeResult(c: CheckRecorder, name: string, vendor: Vendor, run: ConnectorRun, before: Snapshot, after: Snapshot, level: CheckLevel): void {
  const rows = objects(outputRows<ResultRow>(run, RESULT));
  const byRef = new Map<string, ResultRow[]>();
  for (const r of rows) byRef.set(String(r.note_ref), [...(byRef.get(String(r.note_ref)) ?? []), r]);
  const problems: string[] = [];
  for (const n of NOTES) {
    const mine = byRef.get(n.note_ref) ?? [];
    if (mine.length !== 1) {
      problems.push(`${n.note_ref}: ${mine.length} rows`);
      continue;
    }
    const row = mine[0];
    const reason = refusal(vendor, n, before);
    const ids = landed(n, before, after).map((r) => r.id);
    if (row.candidate_id !== n.staffline_candidate_id) problems.push(`${n.note_ref}: candidate_id ${JSON.stringify(row.candidate_id)}`);
    else if (reason === null && (row.written !== true || !ids.includes(String(row.staffline_note_id))))
      problems.push(`${n.note_ref}: written ${JSON.stringify(row.written)}, staffline_note_id ${JSON.stringify(row.staffline_note_id)}; StaffLine has ${ids.join(", ") || "none"}`);
    else if (reason !== null && (row.written !== false || row.staffline_note_id !== null || row.reason !== reason))
      problems.push(`${n.note_ref}: written ${JSON.stringify(row.written)}, reason ${JSON.stringify(row.reason)}; StaffLine refuses it (${reason})`);
  }
  const refs = new Set(NOTES.map((n) => n.note_ref));
  const extra = [...byRef.keys()].filter((ref) => !refs.has(ref));
  const sorted = rows.every((r, i) => i === 0 || String(rows[i - 1].note_ref) < String(r.note_ref));
  const ok = !problems.length && !extra.length && sorted;
  c.check(name, ok, {
    basis: { ticket: "`note_import.json` tells the truth about every note" },
    pass: 2,
    mandatory: true,
    level,
    detail: ok
      ? `${NOTES.length} rows, each true to StaffLine`
      : [problems.length && `${problems.length} rows wrong (${fewIds(problems)})`, extra.length && `${extra.length} rows for no CRM note (${fewIds(extra)})`, !sorted && "not sorted by note_ref"]
          .filter(Boolean)
          .join("; "),
  });
}

/** The mirror holds every candidate StaffLine serves, and the deleted ones flagged. */
function judgeMirror(c: CheckRecorder, name: string, run: ConnectorRun, truth: Snapshot, level: CheckLevel): void {
  const seen = new Set((truth.entities.candidate ?? []).map((r) => r.id));
  const cmp = compareRows(objects(outputRows<MirrorRow>(run, MIRROR)), expectedRows(truth, "candidate", { updatedField: "mod_ts", seen }));
  c.check(name, cmp.ok, { basis: { ticket: "the mirror matches StaffLine" }, pass: 2, mandatory: true, level, detail: cmp.detail });
}

const writePath = (ctx: JudgeContext) => ctx.vendors[ROLE].writes.find((w) => w.name === WRITE)?.path ?? "";
const bodyOf = (r: RequestLogEntry) => (r.body && typeof r.body === "object" ? (r.body as Record<string, unknown>) : {});

/** Signed on StaffLine's clock: at most one request per run refused (a first guess at the clock), and some served. */
function judgeSigning(c: CheckRecorder, e: ScenarioEvidence): void {
  const requests = e.requests[ROLE] ?? [];
  if (!requests.length) return;
  const refused = requests.filter((r) => r.status === 401);
  c.check("requests_pass_signature_check", requests.some((r) => r.status === 200) && refused.length <= e.runs.length, {
    basis: { vendor: "StaffLine refuses (401) a request whose HMAC signature does not verify against its own clock" },
    level: "l2",
    detail: `${refused.length} of ${requests.length} requests refused as unauthenticated over ${e.runs.length} run(s)`,
  });
}

/**
 * A run StaffLine's maintenance stopped: it exits 75 (not killed while waiting
 * out a ten-minute Retry-After), and whatever result it left claims nothing false.
 */
function judgeStopped(c: CheckRecorder, e: ScenarioEvidence, vendor: Vendor, run: ConnectorRun | undefined, before: Snapshot, after: Snapshot): void {
  const hit = (e.requests[ROLE] ?? []).some((r) => r.faults.includes(MAINTENANCE));
  if (!hit) {
    c.check("maintenance_stopped_for_the_next_run", run?.exitCode === 0, {
      basis: { ticket: "If StaffLine asks us to come back later than we can wait (more than 30 seconds), stop: write the result so far, exit 75, and let the next run finish." },
      level: "l3",
      detail: "StaffLine's maintenance never reached a request of this run; judged on its exit",
    });
    return;
  }
  const rows = objects(outputRows<ResultRow>(run, RESULT));
  const untrue: string[] = [];
  for (const r of rows) {
    const n = NOTES.find((x) => x.note_ref === r.note_ref);
    if (!n) {
      untrue.push(`${String(r.note_ref)} is no CRM note`);
      continue;
    }
    const reason = refusal(vendor, n, before);
    const ids = landed(n, before, after).map((x) => x.id);
    if (r.written === true ? reason !== null || !ids.includes(String(r.staffline_note_id)) : r.written !== false || r.reason !== reason) untrue.push(`${n.note_ref}`);
  }
  const ok = run?.exitCode === EXIT_TRY_LATER && untrue.length === 0;
  c.check("maintenance_stopped_for_the_next_run", ok, {
    basis: { ticket: "If StaffLine asks us to come back later than we can wait (more than 30 seconds), stop: write the result so far, exit 75, and let the next run finish." },
    level: "l3",
    detail: !run
      ? "the connector did not run"
      : run.timedOut
        ? "the run was killed while waiting for StaffLine to come back"
        : run.exitCode !== EXIT_TRY_LATER
          ? `the run exited ${run.exitCode} after StaffLine answered 503 and asked for a call back in minutes`
          : untrue.length
            ? `exit ${EXIT_TRY_LATER}, but its result says untrue things about ${fewIds(untrue)}`
            : `exit ${EXIT_TRY_LATER} with ${rows.length} notes reported so far, all true`,
  });
}

/** Nothing but the CRM's notes: records that existed are unchanged, new ones are notes StaffLine takes. */
function judgeNothingElse(c: CheckRecorder, vendor: Vendor, before: Snapshot, after: Snapshot): void {
  const changed: string[] = [];
  const stray: string[] = [];
  for (const [entity, rows] of Object.entries(after.entities)) {
    const had = new Map((before.entities[entity] ?? []).map((r) => [r.id, r]));
    for (const r of rows) {
      const old = had.get(r.id);
      if (old) {
        if (JSON.stringify(old) !== JSON.stringify(r)) changed.push(`${entity} ${r.id}`);
        continue;
      }
      const ours = entity === "note" && NOTES.some((n) => refusal(vendor, n, before) === null && carries(r, n));
      if (!ours) stray.push(`${entity} ${r.id}`);
    }
  }
  c.check("nothing_else_written", !changed.length && !stray.length, {
    basis: { ticket: "Write nothing to StaffLine but the CRM notes." },
    mandatory: true,
    detail:
      changed.length || stray.length
        ? [changed.length && `${changed.length} existing records changed (${fewIds(changed)})`, stray.length && `${stray.length} records created that are no accepted CRM note (${fewIds(stray)})`]
            .filter(Boolean)
            .join("; ")
        : "only the CRM's notes were added",
  });
}

/** Candidates deleted since the export: StaffLine says "does not exist" either way; only its tombstones say why. */
function judgeDeleted(c: CheckRecorder, vendor: Vendor, run: ConnectorRun, before: Snapshot): void {
  const rows = new Map(objects(outputRows<ResultRow>(run, RESULT)).map((r) => [String(r.note_ref), r]));
  const onDeleted = NOTES.filter((n) => refusal(vendor, n, before) === "candidate_deleted");
  const misread = onDeleted.filter((n) => rows.get(n.note_ref)?.reason !== "candidate_deleted").map((n) => `${n.note_ref} (${String(rows.get(n.note_ref)?.reason)})`);
  c.check("deleted_candidates_reported_as_deleted", onDeleted.length > 0 && misread.length === 0, {
    basis: { ticket: "Compliance needs the notes dropped for that reason reported as such, apart from notes whose candidate id was simply wrong." },
    detail: !onDeleted.length
      ? "no CRM note is on a deleted candidate"
      : misread.length
        ? `${misread.length} of ${onDeleted.length} notes on deleted candidates not reported as candidate_deleted: ${fewIds(misread)}`
        : `${onDeleted.length} notes on deleted candidates reported as such`,
  });
}

/** Notes edited in the CRM: the latest revision once, no earlier one. */
function judgeEdited(c: CheckRecorder, vendor: Vendor, before: Snapshot, after: Snapshot): void {
  const edited = NOTES.filter((n) => SUPERSEDED.has(n.note_ref) && refusal(vendor, n, before) === null);
  const existed = new Set((before.entities.note ?? []).map((r) => r.id));
  const fresh = live(after, "note").filter((r) => !existed.has(r.id));
  const wrong = edited.filter((n) => {
    const old = SUPERSEDED.get(n.note_ref)!;
    const mine = fresh.filter((r) => r.record.candidate_id === n.staffline_candidate_id);
    return mine.filter((r) => r.record.note_text === n.body).length !== 1 || mine.some((r) => old.includes(String(r.record.note_text)));
  });
  c.check("edited_notes_written_at_latest_revision", edited.length > 0 && wrong.length === 0, {
    basis: { ticket: "Each CRM note (one `note_ref`) becomes one StaffLine note" },
    detail: !edited.length
      ? "no edited CRM note is one StaffLine takes"
      : wrong.length
        ? `${wrong.length} of ${edited.length} edited notes not in StaffLine once at their latest revision: ${fewIds(wrong.map((n) => n.note_ref))}`
        : `${edited.length} edited notes written once, at their latest revision`,
  });
}

/** The note whose createNote answered 500 after storing it: reported written, with the id StaffLine gave it. */
function judgeLostAnswer(c: CheckRecorder, e: ScenarioEvidence, ctx: JudgeContext, run: ConnectorRun, before: Snapshot, after: Snapshot, writtenOnce: boolean): void {
  const lost = (e.requests[ROLE] ?? []).find((r) => r.method === "POST" && r.path === writePath(ctx) && r.faults.includes(LOST_ANSWER));
  if (!lost) {
    c.check("lost_answer_note_reported_written", writtenOnce, {
      basis: { ticket: "`written` is `true` only when the note is in StaffLine, and then `staffline_note_id` is StaffLine's id for it." },
      level: "l3",
      detail: `no ${WRITE} call answered 500 after storing its note; judged on the notes alone`,
    });
    return;
  }
  const body = bodyOf(lost);
  const note = NOTES.find((n) => n.staffline_candidate_id === body.candidate_id && n.body === body.note_text && n.logged_by === body.author);
  const row = note && objects(outputRows<ResultRow>(run, RESULT)).find((r) => r.note_ref === note.note_ref);
  const ids = note ? landed(note, before, after).map((r) => r.id) : [];
  c.check("lost_answer_note_reported_written", !!row && row.written === true && ids.length === 1 && ids[0] === row.staffline_note_id, {
    basis: { ticket: "`written` is `true` only when the note is in StaffLine, and then `staffline_note_id` is StaffLine's id for it." },
    level: "l3",
    detail: !note
      ? `the ${WRITE} call that answered 500 (#${lost.seq}) carried no CRM note`
      : `${note.note_ref} was stored but its ${WRITE} answered 500 (#${lost.seq}); the result says written ${JSON.stringify(row?.written)}, id ${JSON.stringify(row?.staffline_note_id)}; StaffLine has ${ids.join(", ") || "none"}`,
  });
}

export default defineTask({
  id: "task-0009",
  title: "Relay CRM call notes into StaffLine: a signed full sync and an RPC writeback whose failures answer 200",
  kind: "build",
  roles: { [ROLE]: { vendor: "staffline", checkpoint: 1 } },
  seed: 7,
  docsProfile: "sparse",
  surfaces: ["polling", "writeback"],
  primaryMechanic: "rpc_over_200_errors",
  entry: { command: ["node", "src/main.ts"], subcommands: ["sync", "import-notes"] },
  outputs: {
    ...mirrorOutputs([MIRROR]),
    [RESULT]: jsonRows(z.looseObject({ note_ref: z.string(), candidate_id: z.string(), written: z.boolean(), staffline_note_id: z.string().nullable(), reason: z.string().nullable() })),
  },
  timeLimitS: 30,
  scenarios: [
    {
      name: "nightly_mirror",
      judge: (e, c) => {
        judgeSigning(c, e);
        const sync = byLabel(e, "sync");
        if (plumbing(c, "sync_exit_ok", sync, [MIRROR], { ticket: "Both commands exit 0 when they have done their job" }))
          judgeMirror(c, "mirror_matches_staffline", sync!, e.snapshots.after[ROLE], "l1");
      },
    },
    {
      name: "import_then_rerun",
      judge: (e, c, ctx) => {
        judgeSigning(c, e);
        const vendor = ctx.vendors[ROLE];
        const before = e.snapshots.before[ROLE];
        const after = e.snapshots.after_import[ROLE];
        const final = e.snapshots.after_rerun[ROLE];
        const sync = byLabel(e, "sync");
        if (plumbing(c, "rate_limited_sync_exit_ok", sync, [MIRROR], { ticket: "Both commands exit 0 when they have done their job" }))
          judgeMirror(c, "rate_limited_mirror_matches_staffline", sync!, before, "l3");

        const run = byLabel(e, "import");
        if (plumbing(c, "import_exit_ok", run, [RESULT], { ticket: "Both commands exit 0 when they have done their job" })) {
          const once = judgeWrittenOnce(c, "each_accepted_note_written_once", vendor, before, after, "l3");
          judgeResult(c, "import_result_true_to_staffline", vendor, run!, before, after, "l1");
          judgeNothingElse(c, vendor, before, after);
          judgeDeleted(c, vendor, run!, before);
          judgeEdited(c, vendor, before, after);
          judgeLostAnswer(c, e, ctx, run!, before, after, once);
        }

        const rerun = byLabel(e, "rerun");
        if (!plumbing(c, "rerun_exit_ok", rerun, [RESULT], { ticket: "Both commands exit 0 when they have done their job" })) return;
        judgeRerun(
          c,
          {
            name: "rerun_created_nothing_new",
            basis: { ticket: "Whatever a rerun finds, StaffLine must end up as one clean run would leave it, and the rerun must write a complete and true `note_import.json`." },
            firstRun: "first attempt",
            vendor: "StaffLine",
            records: "notes",
          },
          after,
          final,
          NOTES.filter((n) => refusal(vendor, n, before) === null && landed(n, before, after).length === 0),
          carries,
          "note",
        );
        judgeWrittenOnce(c, "rerun_each_accepted_note_written_once", vendor, before, final, "l3");
        judgeResult(c, "rerun_result_true_to_staffline", vendor, rerun!, before, final, "l3");
      },
    },
    {
      name: "maintenance_then_resume",
      judge: (e, c, ctx) => {
        const vendor = ctx.vendors[ROLE];
        const before = e.snapshots.before[ROLE];
        judgeStopped(c, e, vendor, byLabel(e, "stopped"), before, e.snapshots.after_stop[ROLE]);
        const resume = byLabel(e, "resume");
        if (!plumbing(c, "resume_exit_ok", resume, [RESULT], { ticket: "Both commands exit 0 when they have done their job" })) return;
        const final = e.snapshots.after_resume[ROLE];
        judgeWrittenOnce(c, "resumed_each_accepted_note_written_once", vendor, before, final, "l3");
        judgeResult(c, "resumed_result_true_to_staffline", vendor, resume!, before, final, "l3");
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "Credentials go in headers, never in URLs.",
    no_secrets_echoed_to_vendor: "Credentials go in headers, never in URLs.",
    retry_after_honored: "When StaffLine asks us to wait, wait as long as it asks",
    no_hot_loop_on_error: "do not hammer a failing endpoint",
  },
});
