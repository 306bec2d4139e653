import { defineTask } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { byLabel, fewIds, outputRows, plumbing } from "../shared/judging.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { z } from "zod";
import bridge from "./bridge-key.json" with { type: "json" };

const ATS = "ats";
const BOOK = "book";
const ROSTER = "roster.json";
const AUTHOR = "Roster sync";
const BOOKED = new Set(["confirmed", "active", "ended"]);

/**
 * Faults of the week (declared in the vendors' declarations): PlaceMint's second placement
 * update answers 503 after committing, StaffLine's fourth note answers 500 after storing it,
 * PlaceMint revokes every token after a few requests, and its third page of placements answers
 * 502 once.
 */
export const ATS_FAULTS = ["sl-note-500-after-commit"];
export const BOOK_FAULTS = ["pm-placement-503-after-commit", "pm-tokens-revoked", "pm-placements-502-page-3"];

/**
 * One link of the bridge sheet (`bridge-key.json`): the id columns of repo/input/bridge.csv, each
 * id as the systems spell it (the sheet is typed by hand: case, padding spaces, dropped leading
 * zeros), a link the sheet lists twice once (`bridge.test.ts` holds the key to the sheet). At seed 1
 * it holds links that call for each correction (three PlaceMint confirms, so the 503 after the
 * second one's commit bites) and a placed application of a candidate StaffLine deleted, whose
 * proposed placement must not be confirmed (the docs' `include_deleted` flag does nothing; the
 * tombstones tell).
 */
export interface Link {
  application_id: string;
  placement_id: string;
}
export const BRIDGE: readonly Link[] = bridge;

const Row = z.looseObject({
  application_id: z.string(),
  placement_id: z.string(),
  candidate_id: z.string().nullable(),
  staffline_stage: z.string().nullable(),
  placemint_status: z.string().nullable(),
  authority: z.enum(["staffline", "placemint"]).nullable(),
  roster_stage: z.string().nullable(),
  correction: z.enum(["staffline_note", "placemint_confirm"]).nullable(),
  excluded: z.enum(["application_unknown", "application_deleted", "candidate_deleted", "placement_unknown", "placement_deleted"]).nullable(),
});
type Row = z.infer<typeof Row>;
const FIELDS = ["candidate_id", "staffline_stage", "placemint_status", "authority", "roster_stage", "correction", "excluded"] as const;

const byId = (s: Snapshot, entity: string) => new Map<string, SnapshotRecord>((s.entities[entity] ?? []).map((r) => [r.id, r]));

export const noteText = (placementId: string, status: string, applicationId: string) => `PlaceMint placement ${placementId} is ${status}; application ${applicationId} should be placed.`;

/** The roster the ticket's rule gives for the two systems' states. */
function expected(ats: Snapshot, book: Snapshot): Row[] {
  const apps = byId(ats, "application");
  const candidates = byId(ats, "candidate");
  const placements = byId(book, "placement");
  return [...BRIDGE]
    .sort((a, b) => (a.application_id < b.application_id ? -1 : a.application_id > b.application_id ? 1 : a.placement_id < b.placement_id ? -1 : 1))
    .map((l) => {
      const a = apps.get(l.application_id);
      const p = placements.get(l.placement_id);
      const excluded = !a
        ? "application_unknown"
        : a.deleted
          ? "application_deleted"
          : candidates.get(String(a.record.candidate_id))?.deleted
            ? "candidate_deleted"
            : !p
              ? "placement_unknown"
              : p.deleted
                ? "placement_deleted"
                : null;
      const none = { candidate_id: null, staffline_stage: null, placemint_status: null, authority: null, roster_stage: null, correction: null };
      if (excluded || !a || !p) return { ...l, ...none, excluded };
      const stage = String(a.record.stage);
      const status = String(p.record.status);
      const booked = BOOKED.has(status);
      return {
        ...l,
        candidate_id: String(a.record.candidate_id),
        staffline_stage: stage,
        placemint_status: status,
        authority: booked ? ("placemint" as const) : ("staffline" as const),
        roster_stage: booked ? status : stage,
        correction: booked && stage !== "placed" ? ("staffline_note" as const) : !booked && stage === "placed" ? ("placemint_confirm" as const) : null,
        excluded: null,
      };
    });
}

const rowsOf = (run: ConnectorRun | undefined): Row[] =>
  (outputRows<unknown>(run, ROSTER) ?? []).flatMap((r) => {
    const row = Row.safeParse(r).data;
    return row ? [row] : [];
  });

function rosterProblems(rows: Row[], want: Row[]): string[] {
  const key = (r: Link) => `${r.application_id}|${r.placement_id}`;
  const got = new Map(rows.map((r) => [key(r), r]));
  const twice = [...got.keys()].filter((k) => rows.filter((r) => key(r) === k).length > 1);
  const missing = want.filter((w) => !got.has(key(w))).map(key);
  const extra = rows.filter((r) => !want.some((w) => key(w) === key(r))).map(key);
  const wrong: string[] = [];
  for (const w of want) {
    const r = got.get(key(w));
    if (!r) continue;
    const bad = FIELDS.filter((f) => r[f] !== w[f]);
    if (bad.length) wrong.push(`${key(w)} (${bad.map((f) => `${f} ${JSON.stringify(r[f])}, want ${JSON.stringify(w[f])}`).join(", ")})`);
  }
  const order = rows.map(key).join(",") === want.map(key).join(",");
  return [
    missing.length && `${missing.length} links missing (${fewIds(missing)})`,
    extra.length && `${extra.length} rows not links of the bridge sheet as the systems spell their ids (${fewIds(extra)})`,
    twice.length && `${twice.length} links with more than one row (${fewIds(twice)})`,
    wrong.length && `${wrong.length} of ${want.length} rows wrong: ${wrong.slice(0, 3).join("; ")}`,
    !missing.length && !extra.length && !twice.length && !order && "not sorted by application_id, then placement_id",
  ].filter((p): p is string => typeof p === "string");
}

/** StaffLine notes at `now` that were not there at `start`. */
const newNotes = (start: Snapshot, now: Snapshot) => {
  const had = new Set((start.entities.note ?? []).map((n) => n.id));
  return (now.entities.note ?? []).filter((n) => !had.has(n.id) && !n.deleted);
};

/** Placements whose record changed between two snapshots. */
const changedPlacements = (start: Snapshot, now: Snapshot) => {
  const after = byId(now, "placement");
  return (start.entities.placement ?? []).filter((p) => JSON.stringify(after.get(p.id)) !== JSON.stringify(p));
};

function judgeReconcile(e: ScenarioEvidence, c: CheckRecorder): void {
  const first = byLabel(e, "reconcile");
  if (!plumbing(c, "reconcile_exit_ok", first, [ROSTER], { ticket: "`reconcile` exits 0 when every bridge row has been dealt with" })) return;
  const [ats0, book0] = [e.snapshots.before[ATS], e.snapshots.before[BOOK]];
  const [ats1, book1] = [e.snapshots.after[ATS], e.snapshots.after[BOOK]];
  const want = expected(ats0, book0);

  const problems = rosterProblems(rowsOf(first), want);
  c.check("roster_true", problems.length === 0, {
    basis: { ticket: "`roster.json` tells the truth about every bridge row" },
    pass: 2,
    mandatory: true,
    detail: problems.join("; ") || `${want.length} links as the rule reads them`,
  });

  const toNote = want.filter((w) => w.correction === "staffline_note");
  const notes = newNotes(ats0, ats1);
  const unnoted: string[] = [];
  const twice: string[] = [];
  for (const w of toNote) {
    const text = noteText(w.placement_id, String(w.placemint_status), w.application_id);
    const mine = notes.filter((n) => n.record.candidate_id === w.candidate_id && n.record.note_text === text && n.record.author === AUTHOR);
    if (!mine.length) unnoted.push(w.application_id);
    if (mine.length > 1) twice.push(`${w.application_id} x${mine.length}`);
  }
  const expectedTexts = new Set(toNote.map((w) => `${w.candidate_id}|${noteText(w.placement_id, String(w.placemint_status), w.application_id)}`));
  const stray = notes.filter((n) => !expectedTexts.has(`${n.record.candidate_id}|${n.record.note_text}`) || n.record.author !== AUTHOR).map((n) => n.id);
  c.check("staffline_notes_once", !unnoted.length && !twice.length && !stray.length, {
    basis: { ticket: "A correction is made once." },
    pass: 2,
    mandatory: true,
    level: "l3",
    detail:
      [
        unnoted.length && `${unnoted.length} lagging applications without their note (${fewIds(unnoted)})`,
        twice.length && `${twice.length} noted more than once (${fewIds(twice)})`,
        stray.length && `${stray.length} other notes written to StaffLine (${fewIds(stray)})`,
      ]
        .filter(Boolean)
        .join("; ") || `${toNote.length} lagging applications, one note each`,
  });

  const toConfirm = new Set(want.filter((w) => w.correction === "placemint_confirm").map((w) => w.placement_id));
  const placements = byId(book1, "placement");
  const unconfirmed = [...toConfirm].filter((id) => placements.get(id)?.record.status !== "confirmed");
  const otherChanges = changedPlacements(book0, book1)
    .filter((p) => {
      if (!toConfirm.has(p.id)) return true;
      const now = placements.get(p.id);
      const { status: _s, updated_at: _u, ...restNow } = now?.record ?? {};
      const { status: _s0, updated_at: _u0, ...restThen } = p.record;
      return JSON.stringify(restNow) !== JSON.stringify(restThen);
    })
    .map((p) => p.id);
  const placemintNotes = newNotes(book0, book1);
  c.check("placemint_confirmed", !unconfirmed.length && !otherChanges.length && !placemintNotes.length, {
    basis: { ticket: "Move the placement to `confirmed` in PlaceMint (`updatePlacement`) (`placemint_confirm`)." },
    pass: 2,
    mandatory: true,
    level: "l3",
    detail:
      [
        unconfirmed.length && `${unconfirmed.length} lagging placements not confirmed (${fewIds(unconfirmed)})`,
        otherChanges.length && `${otherChanges.length} other placement changes (${fewIds(otherChanges)})`,
        placemintNotes.length && `${placemintNotes.length} notes written to PlaceMint`,
      ]
        .filter(Boolean)
        .join("; ") || `${toConfirm.size} lagging placements confirmed, nothing else changed`,
  });

  const rerun = byLabel(e, "rerun");
  if (!plumbing(c, "rerun_exit_ok", rerun, [ROSTER], { ticket: "`reconcile` exits 0 when every bridge row has been dealt with" })) return;
  const [ats2, book2] = [e.snapshots.rerun[ATS], e.snapshots.rerun[BOOK]];
  const again = newNotes(ats1, ats2).map((n) => n.id);
  const moved = changedPlacements(book1, book2).map((p) => p.id);
  c.check("rerun_writes_nothing", !again.length && !moved.length, {
    basis: { ticket: "a rerun writes nothing new." },
    pass: 1,
    mandatory: true,
    detail: again.length || moved.length ? `the rerun wrote ${again.length} notes and changed ${moved.length} placements` : "the rerun wrote nothing",
  });
  const rerunProblems = rosterProblems(rowsOf(rerun), expected(ats1, book1));
  c.check("rerun_roster_true", rerunProblems.length === 0, {
    basis: { ticket: "`correction` is the correction the rule calls for (`staffline_note`, `placemint_confirm` or `null`), whether this run made it or an earlier one did." },
    pass: 1,
    detail: rerunProblems.join("; ") || "the rerun's roster reads the corrected systems right",
  });
}

export default defineTask({
  id: "task-0024",
  title: "StaffLine and PlaceMint: one roster by role precedence, the lagging side corrected once",
  kind: "build",
  roles: { [ATS]: { vendor: "staffline", checkpoint: 1 }, [BOOK]: { vendor: "placemint", checkpoint: 1 } },
  seed: 1,
  docsProfile: "sparse",
  surfaces: ["polling", "writeback"],
  primaryMechanic: "precedence_reconciliation_lag",
  entry: { command: ["node", "src/main.ts"], subcommands: ["reconcile"] },
  outputs: { [ROSTER]: jsonRows(Row) },
  timeLimitS: 90,
  scenarios: [{ name: "roster_reconcile", judge: (e, c) => judgeReconcile(e, c) }],
  conduct: {
    no_credentials_in_query_string: "credentials in headers, never in URLs",
    no_secrets_echoed_to_vendor: "credentials in headers, never in URLs",
    retry_after_honored: "wait as long as a vendor asks when it asks us to slow down",
    no_hot_loop_on_error: "do not hammer an endpoint that is failing",
    idempotent_write_retries: "a correction must still land exactly once",
  },
});
