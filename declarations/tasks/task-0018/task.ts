import { defineTask, type JudgeContext } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import { compareRows, expectedRows, fewIds, liveIds, outputRows, plumbing, type MirrorRow, mirrorOutputs, byLabel } from "../shared/judging.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { z } from "zod";
import { deliveries, deliveryChecks } from "../shared/deliveries.ts";
import { droppedDeletes, unconfirmedRemovals } from "../shared/dropped-deletes.ts";

const WAREHOUSE = ["candidates.json", "applications.json"];
const ENTITIES = [
  { entity: "candidate", file: "candidates.json" },
  { entity: "application", file: "applications.json" },
] as const;

/** The lines of `repo/input/erasure-requests.csv`, ids as the privacy team typed them. */
const ERASURE_REQUESTS = [
  { request_id: "DSR-2025-0311", candidate_id: "can_000046" },
  { request_id: "DSR-2025-0317", candidate_id: "CAN_000120" },
  { request_id: "DSR-2025-0322", candidate_id: "can_000072" },
  { request_id: "DSR-2025-0324", candidate_id: "can_000108 " },
  { request_id: "DSR-2025-0329", candidate_id: "can_000157" },
  { request_id: "DSR-2025-0330", candidate_id: "can_000412" },
];

/** The declared fault that keeps one `*.deleted` event from ever being delivered. */
const DROP_FAULT = "tl-drop-first-candidate-delete";
export const LIVE_FAULTS = [DROP_FAULT, "tl-reversed-burst", "tl-forged-delivery", "tl-stale-delivery", "tl-candidates-500-page-2"];

/** One entry of the erasure report. */
interface ReportEntry {
  request_id?: unknown;
  candidate_id?: unknown;
  status?: unknown;
}

/** Warehouse rows of an output file, objects only. */
function rows(run: ConnectorRun | undefined, file: string): MirrorRow[] {
  return (outputRows<MirrorRow>(run, file) ?? []).filter((r) => r !== null && typeof r === "object");
}

function deletedIds(s: Snapshot, entity: string): Set<string> {
  return new Set((s.entities[entity] ?? []).filter((r) => r.deleted).map((r) => r.id));
}

/**
 * Compares a warehouse file with the truth. `held` are the records the
 * warehouse had live copies of (its back-fill): those TalentLoop has deleted
 * since must have a removed row. For a record deleted before the warehouse
 * held it, a removed row and no row are both right; a live row is not.
 */
function compareWarehouse(actual: MirrorRow[], truth: Snapshot, entity: string, held: Set<string>): { ok: boolean; detail: string } {
  const gone = deletedIds(truth, entity);
  const kept = actual.filter((r) => !(r.is_deleted === true && gone.has(String(r.source_id)) && !held.has(String(r.source_id))));
  return compareRows(kept, expectedRows(truth, entity, { updatedField: "updated_at", seen: held }));
}

function backfillChecks(c: CheckRecorder, run: ConnectorRun | undefined, truth: Snapshot): void {
  for (const { entity, file } of ENTITIES) {
    const cmp = compareRows(rows(run, file), expectedRows(truth, entity, { updatedField: "updated_at" }));
    c.check(`backfill_${entity}s_match`, cmp.ok, {
      basis: { ticket: "Read every candidate and application and rewrite the warehouse files from scratch." },
      pass: 2,
      fail: 0,
      mandatory: true,
      detail: cmp.detail,
    });
  }
}

/** A row removed the way the ticket asks: flagged, and nothing left in `data`. */
function wiped(r: MirrorRow | undefined): boolean {
  return r?.is_deleted === true && !!r.data && typeof r.data === "object" && Object.keys(r.data).length === 0;
}

/** GDPR: a removed row keeps nothing but its id, stamp and flag. Recorded when the run left removed rows. */
function noPersonalData(c: CheckRecorder, run: ConnectorRun | undefined): void {
  const removed = WAREHOUSE.flatMap((f) => rows(run, f).filter((r) => r.is_deleted === true));
  if (!removed.length) return;
  const holding = removed.filter((r) => !wiped(r)).map((r) => String(r.source_id));
  c.check("deleted_rows_hold_no_personal_data", holding.length === 0, {
    basis: { ticket: "Its `data` must be `{}`: once TalentLoop has removed a person, we keep nothing about them." },
    detail: holding.length ? `${holding.length} of ${removed.length} removed rows still hold data (${fewIds(holding)})` : `${removed.length} removed rows hold no data`,
  });
}

/**
 * Rows that were live in `before` and are removed in `after` must each have
 * been confirmed by TalentLoop in the scenario's last epoch: a read of the
 * record by id answering 410 (or 404). Recorded when such rows exist.
 */
function removalsConfirmed(c: CheckRecorder, e: ScenarioEvidence, ctx: JudgeContext, before: ConnectorRun | undefined, after: ConnectorRun | undefined): void {
  const { marked, unconfirmed } = unconfirmedRemovals(e, "ats", ctx.vendors.ats, ENTITIES, { before, after }, [410, 404]);
  if (!marked.length) return;
  c.check("vanished_records_confirmed_gone", unconfirmed.length === 0, {
    basis: { ticket: "Before you mark a record removed, get TalentLoop's confirmation for that record." },
    level: "l2",
    detail: unconfirmed.length
      ? `${unconfirmed.length} of ${marked.length} rows marked removed without a read of the record answering 410 (${fewIds(unconfirmed)})`
      : `${marked.length} removals each confirmed by a read of the record`,
  });
}

/** The erasure report TalentLoop's state implies: one entry per request, in the file's order. */
function expectedReport(truth: Snapshot): { request_id: string; candidate_id: string; status: string }[] {
  const byId = new Map((truth.entities.candidate ?? []).map((r) => [r.id, r]));
  return ERASURE_REQUESTS.map(({ request_id, candidate_id }) => {
    const id = candidate_id.trim().toLowerCase();
    const r = byId.get(id);
    return { request_id, candidate_id: id, status: !r ? "unknown_candidate" : r.deleted ? "erased" : "not_erased" };
  });
}

function erasureChecks(c: CheckRecorder, run: ConnectorRun | undefined, backfilled: Snapshot, truth: Snapshot): void {
  const got = outputRows<ReportEntry>(run, "erasure_report.json") ?? [];
  const want = expectedReport(truth);
  const wrong = want.flatMap((w, i) => {
    const g = got[i];
    if (!g || typeof g !== "object") return [`${w.request_id} missing`];
    const bad = (["request_id", "candidate_id", "status"] as const).filter((k) => g[k] !== w[k]);
    return bad.length ? [`${w.request_id}: ${bad.map((k) => `${k} ${JSON.stringify(g[k])} (TalentLoop: ${JSON.stringify(w[k])})`).join(", ")}`] : [];
  });
  if (got.length > want.length) wrong.push(`${got.length - want.length} entries beyond the ${want.length} requests`);
  c.check("erasure_report_matches", wrong.length === 0, {
    basis: { ticket: "The erasure report tells the DPO the truth about every request." },
    pass: 2,
    fail: 0,
    mandatory: true,
    detail: wrong.length ? wrong.slice(0, 3).join("; ") : `${want.length} requests reported as TalentLoop holds them`,
  });

  // The audit acts on the warehouse rows of the requested candidates it held: an erased one is
  // removed at once, one TalentLoop still holds stays live whatever the privacy tool says.
  const held = liveIds(backfilled, "candidate");
  const warehouse = new Map(rows(run, "candidates.json").map((r) => [String(r.source_id), r]));
  const acted = want.filter((w) => held.has(w.candidate_id) && w.status !== "unknown_candidate");
  if (!acted.length) return;
  const kept: string[] = [];
  const lost: string[] = [];
  for (const w of acted) {
    const r = warehouse.get(w.candidate_id);
    if (w.status === "erased" && !wiped(r)) kept.push(w.candidate_id);
    if (w.status === "not_erased" && r?.is_deleted !== false) lost.push(w.candidate_id);
  }
  const erased = acted.filter((w) => w.status === "erased").length;
  c.check("audit_applied_to_warehouse", kept.length + lost.length === 0, {
    basis: { ticket: "When the audit finds a candidate erased, the candidate's warehouse row is removed (as above) in the same run." },
    detail:
      kept.length + lost.length
        ? [
            kept.length && `${kept.length} of ${erased} erased candidates not removed by the audit (${fewIds(kept)})`,
            lost.length && `${lost.length} of ${acted.length - erased} candidates TalentLoop still holds removed or missing (${fewIds(lost)})`,
          ]
            .filter(Boolean)
            .join("; ")
        : `${erased} erased candidates removed by the audit, ${acted.length - erased} still held kept live`,
  });
}

/** The listener's warehouse against the truth: changes to live records, then removals. */
function listenerChecks(c: CheckRecorder, run: ConnectorRun | undefined, cp0: Snapshot, cp1: Snapshot, ctx: JudgeContext): void {
  const problems: string[] = [];
  const live: string[] = [];
  const leftLive: string[] = [];
  let expected = 0;
  for (const { entity, file } of ENTITIES) {
    const gone = deletedIds(cp1, entity);
    const actual = rows(run, file);
    const cmp = compareRows(
      actual.filter((r) => !gone.has(String(r.source_id))),
      expectedRows(cp1, entity, { updatedField: "updated_at" }),
    );
    if (!cmp.ok) problems.push(`${file}: ${cmp.detail}`);

    const before = deletedIds(cp0, entity);
    const held = liveIds(cp0, entity);
    const byId = new Map(actual.map((r) => [String(r.source_id), r]));
    const stillLive: string[] = [];
    for (const id of gone) {
      if (before.has(id)) continue;
      expected += 1;
      const r = byId.get(id);
      if (held.has(id) ? r?.is_deleted !== true : r !== undefined && r.is_deleted !== true) stillLive.push(id);
    }
    // The delete a drop fault kept back is the reconcile's to find.
    if (stillLive.length <= droppedDeletes(ctx.vendors.ats, [DROP_FAULT], entity)) leftLive.push(...stillLive);
    else live.push(...stillLive);
  }
  c.check("listener_changes_applied", problems.length === 0, {
    basis: { ticket: "After the listener has run, the warehouse reflects what TalentLoop told it, removals included." },
    pass: 2,
    fail: 0,
    mandatory: true,
    detail: problems.length ? problems.join("; ") : "every created and updated record matches after the listener",
  });
  c.check("listener_deletes_applied", expected > 0 && live.length === 0, {
    basis: { ticket: "After the listener has run, the warehouse reflects what TalentLoop told it, removals included." },
    pass: 2,
    fail: 0,
    mandatory: true,
    detail: live.length
      ? `${live.length} of ${expected} records deleted in TalentLoop still live after the listener (${fewIds(live)})`
      : `${expected} deletes applied${leftLive.length ? ` (${leftLive.join(", ")}: its event was never delivered)` : ""}`,
  });
}

export default defineTask({
  id: "task-0018",
  title: "TalentLoop warehouse repair: deletions lost to a documented delete flag that does not exist, a short back-fill and a false erasure audit",
  kind: "fix",
  roles: { ats: { vendor: "talentloop", checkpoint: 1 } },
  seed: 75,
  docsProfile: "stale",
  surfaces: ["webhooks", "polling"],
  primaryMechanic: "phantom_delete_flag_detection",
  entry: { command: ["node", "src/main.ts"], subcommands: ["backfill", "serve", "reconcile", "erasures"] },
  outputs: {
    ...mirrorOutputs(WAREHOUSE),
    "erasure_report.json": jsonRows(z.looseObject({ request_id: z.string(), candidate_id: z.string(), status: z.enum(["erased", "not_erased", "unknown_candidate"]) })),
  },
  timeLimitS: 30,
  scenarios: [
    {
      // The listener was down for two days (no events at all). The DPO's audit runs first,
      // then the nightly reconcile has to find every removal by itself.
      name: "erasure_audit_after_outage",
      judge: (e, c, ctx) => {
        const cp1 = e.snapshots.cp1.ats;
        const cp3 = e.snapshots.cp3.ats;
        const backfill = byLabel(e, "backfill");
        if (plumbing(c, "audit_backfill_exit_ok", backfill, WAREHOUSE, { ticket: "Every command exits 0." })) backfillChecks(c, backfill, cp1);
        const audit = byLabel(e, "erasures");
        if (plumbing(c, "erasures_exit_ok", audit, ["erasure_report.json", "candidates.json"], { ticket: "Every command exits 0." })) erasureChecks(c, audit, cp1, cp3);
        const reconcile = byLabel(e, "reconcile");
        if (!plumbing(c, "outage_reconcile_exit_ok", reconcile, WAREHOUSE, { ticket: "Every command exits 0." })) return;
        for (const { entity, file } of ENTITIES) {
          const cmp = compareWarehouse(rows(reconcile, file), cp3, entity, liveIds(cp1, entity));
          c.check(`outage_reconciled_${entity}s_match`, cmp.ok, {
            basis: { ticket: "Afterwards the warehouse must match TalentLoop exactly, removals included." },
            pass: 2,
            fail: 0,
            mandatory: true,
            detail: cmp.detail,
          });
        }
        noPersonalData(c, reconcile);
        removalsConfirmed(c, e, ctx, backfill, reconcile);
      },
    },
    {
      // A day of changes pushed live: reordered, with forgeries, a stale replay and one
      // candidate delete that is never delivered; the nightly reconcile meets a 500 mid-list.
      name: "live_deletes_and_missed_one",
      judge: (e, c, ctx) => {
        const cp0 = e.snapshots.cp0.ats;
        const cp1 = e.snapshots.cp1.ats;
        const backfill = byLabel(e, "backfill");
        if (plumbing(c, "live_backfill_exit_ok", backfill, WAREHOUSE, { ticket: "Every command exits 0." })) backfillChecks(c, backfill, cp0);
        deliveryChecks(c, deliveries(e, "ats"), ctx.vendors.ats?.webhooks?.maxSkewS ?? 300, {
          acknowledged: { ticket: "acknowledge what you have taken in with a 2xx so TalentLoop does not resend it" },
          refused: { ticket: "Refuse anything else with a 4xx" },
        });
        const listener = byLabel(e, "serve");
        if (plumbing(c, "listener_exit_ok", listener, WAREHOUSE, { ticket: "Every command exits 0." })) {
          listenerChecks(c, listener, cp0, cp1, ctx);
          noPersonalData(c, listener);
        }
        const reconcile = byLabel(e, "reconcile");
        if (!plumbing(c, "nightly_reconcile_exit_ok", reconcile, WAREHOUSE, { ticket: "Every command exits 0." })) return;
        for (const { entity, file } of ENTITIES) {
          const cmp = compareWarehouse(rows(reconcile, file), cp1, entity, liveIds(cp0, entity));
          c.check(`reconciled_${entity}s_match`, cmp.ok, {
            basis: { ticket: "Afterwards the warehouse must match TalentLoop exactly, removals included." },
            pass: 2,
            fail: 0,
            mandatory: true,
            detail: cmp.detail,
          });
        }
        // Every candidate deleted that day is gone from the warehouse, the one whose event never came included.
        const heldCands = liveIds(cp0, "candidate");
        const goneCands = [...deletedIds(cp1, "candidate")].filter((id) => !deletedIds(cp0, "candidate").has(id));
        const isLive = (r: MirrorRow | undefined) => r !== undefined && r.is_deleted !== true;
        const before = new Map(rows(listener, "candidates.json").map((r) => [String(r.source_id), r]));
        const after = new Map(rows(reconcile, "candidates.json").map((r) => [String(r.source_id), r]));
        const missed = goneCands.filter((id) => isLive(before.get(id)));
        const unmarked = goneCands.filter((id) => (heldCands.has(id) ? after.get(id)?.is_deleted !== true : isLive(after.get(id))));
        c.check("missed_delete_found_by_reconcile", goneCands.length > 0 && unmarked.length === 0, {
          basis: { ticket: "Afterwards the warehouse must match TalentLoop exactly, removals included." },
          pass: 2,
          fail: 0,
          mandatory: true,
          level: "l3",
          detail: unmarked.length
            ? `${unmarked.length} of ${goneCands.length} candidates deleted that day still live after reconcile (${fewIds(unmarked)})`
            : `${goneCands.length} candidates deleted that day gone after reconcile${missed.length ? `, ${missed.join(", ")} found by reconcile` : ""}`,
        });
        noPersonalData(c, reconcile);
        removalsConfirmed(c, e, ctx, listener, reconcile);
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "credentials belong in headers",
    no_secrets_echoed_to_vendor: "credentials belong in headers",
    webhook_bad_signature_rejected: "nothing reaches the warehouse unless it provably comes from TalentLoop, now",
    webhook_stale_timestamp_rejected: "nothing reaches the warehouse unless it provably comes from TalentLoop, now",
    token_reused_not_reminted: "reuse access tokens",
    retry_after_honored: "follow the documented rate limits",
  },
});
