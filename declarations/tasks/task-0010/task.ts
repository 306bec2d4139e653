import { defineTask, type JudgeContext } from "../../schema/task.ts";
import type { Vendor } from "../../schema/vendor.ts";
import type { CheckLevel, ConnectorRun, ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import { fewIds, outputRows, plumbing, byLabel } from "../shared/judging.ts";
import legacy from "./repo/input/legacy-notes.json" with { type: "json" };
import { jsonRows } from "../../schema/output-contract.ts";
import { z } from "zod";
import { objects } from "../shared/rows.ts";
import { judgeRerun } from "../shared/rerun.ts";
import { carriesNote, landedNotes, type NoteIntent, type NoteRefusal, noteRefusal } from "../shared/staffline-notes.ts";

export const ROLE = "ats";
const REPORT = "import_report.json";
const BULK = "bulkCreateNotes";
const SINGLE = "createNote";
/** Faults the scenario arms (declared in declarations/vendors/staffline.ts). */
export const CAP_413 = "sl-bulk-413";
export const PHANTOM = "sl-bulk-phantom";
export const LOST_ANSWER = "sl-bulk-500-after-commit";

/** One row of the TallyHire export (`repo/input/legacy-notes.json`). */
interface ExportRow {
  legacy_id: string;
  candidate_id: string;
  recruiter: string;
  written_on: string;
  text: string;
}

/** One row of import_report.json, as the ticket defines it. */
interface ReportRow {
  legacy_id: unknown;
  candidate_id: unknown;
  status: unknown;
  staffline_note_id: unknown;
  reason: unknown;
}

type Reason = NoteRefusal;

const ROWS: ExportRow[] = [...legacy.notes].sort((a, b) => (a.legacy_id < b.legacy_id ? -1 : 1));

const writeOf = (vendor: Vendor, name: string) => {
  const w = vendor.writes.find((x) => x.name === name);
  if (!w) throw new Error(`task-0010 expects StaffLine to declare ${name}`);
  return w;
};
const bodyOf = (r: RequestLogEntry) => (r.body && typeof r.body === "object" ? (r.body as Record<string, unknown>) : {});

/** The StaffLine note an export row asks for: on its candidate, its text, by its recruiter. */
const intent = (r: ExportRow): NoteIntent => ({ candidateId: r.candidate_id, text: r.text, author: r.recruiter });
/** Why StaffLine refuses a row, in the ticket's order (a deleted candidate is not found), or null when it takes it. */
const refusal = (vendor: Vendor, r: ExportRow, truth: Snapshot): Reason | null => noteRefusal(vendor, intent(r), truth, { write: BULK, deletedCandidate: "candidate_not_found" });
/** Whether a StaffLine note carries an export row. */
const carries = (n: SnapshotRecord, r: ExportRow): boolean => carriesNote(n, intent(r));
/** Notes created since `before` that carry this row. */
const landed = (r: ExportRow, before: Snapshot, after: Snapshot): SnapshotRecord[] => landedNotes(intent(r), before, after);

/** The export rows a bulk call carried. */
function rowsIn(req: RequestLogEntry): ExportRow[] {
  const items = Array.isArray(bodyOf(req).notes) ? (bodyOf(req).notes as Record<string, unknown>[]) : [];
  return ROWS.filter((r) => items.some((i) => i && i.candidate_id === r.candidate_id && i.note_text === r.text && i.author === r.recruiter));
}

/** Every row StaffLine takes is there once, on its candidate, with its text and author. */
function judgeWrittenOnce(c: CheckRecorder, name: string, vendor: Vendor, before: Snapshot, after: Snapshot, level: CheckLevel): void {
  const wrong: string[] = [];
  let accepted = 0;
  for (const r of ROWS) {
    const want = refusal(vendor, r, before) === null ? 1 : 0;
    accepted += want;
    const have = landed(r, before, after).length;
    if (have !== want) wrong.push(`${r.legacy_id}: ${have} notes${want ? "" : " (StaffLine refuses it)"}`);
  }
  c.check(name, wrong.length === 0, {
    basis: { ticket: "One StaffLine note per export row: never zero times, never twice, whatever happens on the way." },
    pass: 2,
    mandatory: true,
    level,
    detail: wrong.length
      ? `${wrong.length} rows are not in StaffLine exactly as often as they should be: ${fewIds(wrong)}`
      : `${accepted} notes written once each, ${ROWS.length - accepted} refused rows not at all`,
  });
}

/** One report row, true to StaffLine: null when it is, else what is wrong with it. */
function rowProblem(vendor: Vendor, r: ExportRow, row: ReportRow | undefined, before: Snapshot, after: Snapshot): string | null {
  if (!row) return `${r.legacy_id}: no row`;
  if (row.candidate_id !== r.candidate_id) return `${r.legacy_id}: candidate_id ${JSON.stringify(row.candidate_id)}`;
  const reason = refusal(vendor, r, before);
  const ids = landed(r, before, after).map((n) => n.id);
  if (reason === null) {
    if (row.status === "written" && ids.includes(String(row.staffline_note_id)) && row.reason === null) return null;
    return `${r.legacy_id}: ${JSON.stringify(row.status)} ${JSON.stringify(row.staffline_note_id)}; StaffLine holds ${ids.join(", ") || "no note for it"}`;
  }
  if (row.status === "rejected" && row.staffline_note_id === null && row.reason === reason) return null;
  return `${r.legacy_id}: ${JSON.stringify(row.status)} ${JSON.stringify(row.reason)}; StaffLine refuses it (${reason})`;
}

/** The report: one row per export row, sorted, each true to StaffLine. */
function judgeReport(c: CheckRecorder, name: string, vendor: Vendor, run: ConnectorRun, before: Snapshot, after: Snapshot, level: CheckLevel): void {
  const rows = objects(outputRows<ReportRow>(run, REPORT));
  const byId = new Map<string, ReportRow[]>();
  for (const r of rows) byId.set(String(r.legacy_id), [...(byId.get(String(r.legacy_id)) ?? []), r]);
  const problems: string[] = [];
  for (const r of ROWS) {
    const mine = byId.get(r.legacy_id) ?? [];
    const p = mine.length > 1 ? `${r.legacy_id}: ${mine.length} rows` : rowProblem(vendor, r, mine[0], before, after);
    if (p) problems.push(p);
  }
  const known = new Set(ROWS.map((r) => r.legacy_id));
  const extra = [...byId.keys()].filter((id) => !known.has(id));
  const sorted = rows.every((r, i) => i === 0 || String(rows[i - 1].legacy_id) < String(r.legacy_id));
  const ok = !problems.length && !extra.length && sorted;
  c.check(name, ok, {
    basis: { ticket: "`import_report.json` tells the truth about every row" },
    pass: 2,
    mandatory: true,
    level,
    detail: ok
      ? `${ROWS.length} rows, each true to StaffLine`
      : [problems.length && `${problems.length} rows wrong (${fewIds(problems)})`, extra.length && `${extra.length} rows for no export row (${fewIds(extra)})`, !sorted && "not sorted by legacy_id"]
          .filter(Boolean)
          .join("; "),
  });
}

/** The rows StaffLine refuses: each reported rejected with its reason (whatever else the report gets wrong). */
function judgeRejections(c: CheckRecorder, vendor: Vendor, run: ConnectorRun, before: Snapshot): void {
  const rows = new Map(objects(outputRows<ReportRow>(run, REPORT)).map((r) => [String(r.legacy_id), r]));
  const refused = ROWS.filter((r) => refusal(vendor, r, before) !== null);
  const wrong = refused.filter((r) => rows.get(r.legacy_id)?.status !== "rejected" || rows.get(r.legacy_id)?.reason !== refusal(vendor, r, before));
  const kinds = new Set(refused.map((r) => refusal(vendor, r, before)));
  c.check("refused_rows_reported_with_reason", refused.length > 0 && wrong.length === 0, {
    basis: { ticket: "If StaffLine will not take a row, report it with the reason and move on." },
    level: "l1",
    detail: wrong.length
      ? `${wrong.length} of ${refused.length} refused rows not reported rejected with their reason: ${fewIds(wrong.map((r) => `${r.legacy_id} (${String(rows.get(r.legacy_id)?.reason)})`))}`
      : `${refused.length} refused rows reported with their reason (${[...kinds].join(", ")})`,
  });
}

/** Nothing but the export's notes: existing records unchanged, new ones carry a row StaffLine takes. */
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
      if (!(entity === "note" && ROWS.some((x) => refusal(vendor, x, before) === null && carries(r, x)))) stray.push(`${entity} ${r.id}`);
    }
  }
  c.check("nothing_else_written", !changed.length && !stray.length, {
    basis: { ticket: "Nothing else is written to StaffLine." },
    mandatory: true,
    detail:
      changed.length || stray.length
        ? [changed.length && `${changed.length} existing records changed (${fewIds(changed)})`, stray.length && `${stray.length} records that carry no accepted export row (${fewIds(stray)})`]
            .filter(Boolean)
            .join("; ")
        : "only the export's notes were added",
  });
}

/** The migration went through the bulk endpoint, as StaffLine's partner team requires. */
function judgeBulkOnly(c: CheckRecorder, e: ScenarioEvidence, vendor: Vendor): void {
  const requests = e.requests[ROLE] ?? [];
  const bulk = requests.filter((r) => r.method === "POST" && r.path === writeOf(vendor, BULK).path);
  const single = requests.filter((r) => r.method === "POST" && r.path === writeOf(vendor, SINGLE).path);
  c.check("bulk_endpoint_only", bulk.length > 0 && single.length === 0, {
    basis: { ticket: "So this job uses the bulk endpoint for every note it writes." },
    level: "l1",
    detail: `${bulk.length} ${BULK} calls, ${single.length} ${SINGLE} calls`,
  });
}

/** A batch refused with 413 is split and the import carries on; StaffLine is not asked the same thing over and over. */
function judgeSplit(c: CheckRecorder, e: ScenarioEvidence, vendor: Vendor, run: ConnectorRun | undefined): void {
  const path = writeOf(vendor, BULK).path;
  const bulk = (e.requests[ROLE] ?? []).filter((r) => r.method === "POST" && r.path === path && r.epoch === (e.requests[ROLE] ?? [])[0]?.epoch);
  const refused = bulk.filter((r) => r.status === 413);
  const cap = vendor.faults.find((f) => f.id === CAP_413);
  const maxItems = cap && "maxItems" in cap ? Number(cap.maxItems) : writeOf(vendor, BULK).maxItems;
  const taken = bulk.filter((r) => r.status === 207);
  if (!refused.length) {
    c.check("oversized_batches_split", !!run && run.exitCode === 0 && taken.length > 0, {
      basis: { vendor: "StaffLine refuses a bulk call over its real item cap, which is below the documented one, with 413" },
      level: "l2",
      detail: taken.length ? `no batch over StaffLine's cap of ${maxItems} was sent` : "no batch was taken",
    });
    return;
  }
  const sizes = (r: RequestLogEntry) => (Array.isArray(bodyOf(r).notes) ? (bodyOf(r).notes as unknown[]).length : 0);
  const repeated = refused.filter((r, i) => refused.findIndex((x) => x.bodySha256 === r.bodySha256 && JSON.stringify(x.body) === JSON.stringify(r.body)) !== i);
  const after = taken.filter((r) => r.seq > refused[0].seq && sizes(r) <= maxItems);
  const ok = refused.length <= 6 && repeated.length === 0 && after.length > 0;
  c.check("oversized_batches_split", ok, {
    basis: { vendor: "StaffLine refuses a bulk call over its real item cap, which is below the documented one, with 413" },
    level: "l2",
    detail: `${refused.length} calls refused with 413 (largest ${Math.max(...refused.map(sizes))} items), ${repeated.length} of them repeats; ${after.length} smaller batches taken after the first 413`,
  });
}

/**
 * The 207 that reported a note created that StaffLine never stored: every row
 * it carried that StaffLine takes is there once and reported with its real id.
 */
function judgePhantom(c: CheckRecorder, e: ScenarioEvidence, vendor: Vendor, run: ConnectorRun, before: Snapshot, after: Snapshot): void {
  const hit = (e.requests[ROLE] ?? []).find((r) => r.faults.includes(PHANTOM));
  const rows = new Map(objects(outputRows<ReportRow>(run, REPORT)).map((r) => [String(r.legacy_id), r]));
  const carried = hit ? rowsIn(hit).filter((r) => refusal(vendor, r, before) === null) : ROWS.filter((r) => refusal(vendor, r, before) === null);
  const wrong = carried.filter((r) => landed(r, before, after).length !== 1 || rowProblem(vendor, r, rows.get(r.legacy_id), before, after) !== null);
  c.check("phantom_success_found_and_retried", wrong.length === 0 && carried.length > 0, {
    basis: { ticket: "Report what StaffLine holds, not what a response said." },
    level: "l3",
    detail: !hit
      ? `no 207 reported a phantom note; judged on all ${carried.length} accepted rows`
      : wrong.length
        ? `the 207 of #${hit.seq} reported a note created that StaffLine never stored; ${wrong.length} of its rows are not in StaffLine once or not reported true: ${fewIds(wrong.map((r) => r.legacy_id))}`
        : `the 207 of #${hit.seq} reported a note StaffLine never stored; all ${carried.length} of its rows are in StaffLine once and reported with their real ids`,
  });
}

/** The batch whose call answered 500 after storing it: its rows once each, reported with their ids. */
function judgeLostAnswer(c: CheckRecorder, e: ScenarioEvidence, vendor: Vendor, run: ConnectorRun, before: Snapshot, after: Snapshot): void {
  const hit = (e.requests[ROLE] ?? []).find((r) => r.faults.includes(LOST_ANSWER));
  const rows = new Map(objects(outputRows<ReportRow>(run, REPORT)).map((r) => [String(r.legacy_id), r]));
  const carried = hit ? rowsIn(hit).filter((r) => refusal(vendor, r, before) === null) : [];
  const wrong = carried.filter((r) => landed(r, before, after).length !== 1 || rowProblem(vendor, r, rows.get(r.legacy_id), before, after) !== null);
  c.check("lost_answer_batch_written_once", hit ? carried.length > 0 && wrong.length === 0 : run.exitCode === 0, {
    basis: { ticket: "One StaffLine note per export row: never zero times, never twice, whatever happens on the way." },
    level: "l3",
    detail: !hit
      ? `no ${BULK} call answered 500 after storing its batch; judged on the run's exit`
      : wrong.length
        ? `#${hit.seq} stored its batch and answered 500; ${wrong.length} of its rows are not in StaffLine once or not reported true: ${fewIds(wrong.map((r) => r.legacy_id))}`
        : `#${hit.seq} stored its batch and answered 500; its ${carried.length} rows are in StaffLine once, reported with their ids`,
  });
}

/** Signed on StaffLine's clock: at most one request per run refused (a first guess at the clock), and some served. */
function judgeSigning(c: CheckRecorder, e: ScenarioEvidence): void {
  const requests = e.requests[ROLE] ?? [];
  if (!requests.length) return;
  const refused = requests.filter((r) => r.status === 401);
  c.check("requests_pass_signature_check", requests.some((r) => r.status === 200 || r.status === 207) && refused.length <= e.runs.length, {
    basis: { vendor: "StaffLine refuses (401) a request whose HMAC signature does not verify against its own clock" },
    level: "l2",
    detail: `${refused.length} of ${requests.length} requests refused as unauthenticated over ${e.runs.length} run(s)`,
  });
}

export default defineTask({
  id: "task-0010",
  title: "Migrate TallyHire's recruiter notes into StaffLine through its 207 bulk endpoint, with a report true per row",
  kind: "build",
  roles: { [ROLE]: { vendor: "staffline", checkpoint: 1 } },
  seed: 5,
  docsProfile: "sparse",
  surfaces: ["writeback", "polling"],
  primaryMechanic: "multi_status_207_lying_success",
  entry: { command: ["node", "src/main.ts"], subcommands: ["import"] },
  outputs: {
    [REPORT]: jsonRows(
      z.looseObject({ legacy_id: z.string(), candidate_id: z.string(), status: z.enum(["written", "rejected", "failed"]), staffline_note_id: z.string().nullable(), reason: z.string().nullable() }),
    ),
  },
  // 30 s was too tight for gold beside seven other gradings on a slower 2-core machine (two CI runs lost a gold run).
  timeLimitS: 60,
  scenarios: [
    {
      name: "bulk_migration_then_rerun",
      judge: (e, c, ctx: JudgeContext) => {
        judgeSigning(c, e);
        const vendor = ctx.vendors[ROLE];
        const before = e.snapshots.before[ROLE];
        const after = e.snapshots.after_import[ROLE];
        const final = e.snapshots.after_rerun[ROLE];
        const run = byLabel(e, "import");
        if (plumbing(c, "import_exit_ok", run, [REPORT], { ticket: "Exit 0 when every row has been dealt with." })) {
          judgeWrittenOnce(c, "each_accepted_row_written_once", vendor, before, after, "l1");
          judgeReport(c, "import_report_true_to_staffline", vendor, run!, before, after, "l1");
          judgeRejections(c, vendor, run!, before);
          judgeNothingElse(c, vendor, before, after);
          judgeBulkOnly(c, e, vendor);
          judgeSplit(c, e, vendor, run);
          judgePhantom(c, e, vendor, run!, before, after);
          judgeLostAnswer(c, e, vendor, run!, before, after);
        }
        const rerun = byLabel(e, "rerun");
        if (!plumbing(c, "rerun_exit_ok", rerun, [REPORT], { ticket: "Exit 0 when every row has been dealt with." })) return;
        judgeRerun(
          c,
          {
            name: "rerun_created_nothing_twice",
            basis: { ticket: "A rerun must leave StaffLine exactly as one clean run would, and it must write a complete, true report." },
            firstRun: "first run",
            vendor: "StaffLine",
            records: "notes",
          },
          after,
          final,
          ROWS.filter((r) => refusal(vendor, r, before) === null && landed(r, before, after).length === 0),
          carries,
          "note",
        );
        judgeWrittenOnce(c, "rerun_each_accepted_row_written_once", vendor, before, final, "l3");
        judgeReport(c, "rerun_report_true_to_staffline", vendor, rerun!, before, final, "l3");
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "Credentials go in headers, never in URLs.",
    no_secrets_echoed_to_vendor: "Credentials go in headers, never in URLs.",
    retry_after_honored: "When StaffLine asks us to wait, wait as long as it asks.",
    no_hot_loop_on_error: "Do not hammer a failing endpoint.",
  },
});
