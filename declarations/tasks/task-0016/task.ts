import { defineTask, type JudgeContext } from "../../schema/task.ts";
import type { Vendor } from "../../schema/vendor.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import { fewIds, outputRows, plumbing, byLabel } from "../shared/judging.ts";
import queue from "./repo/input/repair-queue.json" with { type: "json" };
import { jsonRows } from "../../schema/output-contract.ts";
import { z } from "zod";
import { objects } from "../shared/rows.ts";

export const ROLE = "ats";
const REPORT = "repair_report.json";
const BULK = "bulkCreatePlacements";
/** Faults the scenario arms (declared in declarations/vendors/globalhire.ts). */
export const STALE = "gh-stale-placement-reads";
export const CAP_413 = "gh-placements-batch-413";

interface Repair {
  repair_id: string;
  kind: string;
  placement_id?: string;
  from_state?: string;
  to_state?: string;
  candidate_id?: string;
  agency_id?: string;
  client?: string;
  job_title?: string;
  work_location?: string;
  bill_rate?: number;
  currency?: string;
  state?: string;
}

interface ReportRow {
  repair_id: unknown;
  outcome: unknown;
  reason: unknown;
  placement_id: unknown;
}

type Outcome = "applied" | "already_applied" | "conflict" | "rejected";

/** What one repair should come to, given GlobalHire as it stood when the run began. */
interface Expected {
  row: Repair;
  outcome: Outcome;
  reason: string | null;
  /** Restates: the placement. Rebooks: the placement that already carries it (null when this row books it). */
  placementId: string | null;
  /** Restates: the state GlobalHire should hold after this row. */
  state?: string;
  /** Rebooks: the key it is booked under. */
  key?: string;
}

const REPAIRS: Repair[] = [...(queue.repairs as Repair[])].sort((a, b) => (a.repair_id < b.repair_id ? -1 : 1));

const bookKey = (candidate: unknown, client: unknown) => `${String(candidate)}|${String(client)}`;
const writeOf = (vendor: Vendor, name: string) => {
  const w = vendor.writes.find((x) => x.name === name);
  if (!w) throw new Error(`task-0016 expects GlobalHire to declare ${name}`);
  return w;
};
const bodyOf = (r: RequestLogEntry) => (r.body && typeof r.body === "object" ? (r.body as Record<string, unknown>) : {});

/** Whether GlobalHire's batch write turns a rebook row down: a required value missing or one outside its allowed set. */
function refusedBy(vendor: Vendor, row: Repair): boolean {
  return writeOf(vendor, BULK).inputs.some((i) => {
    const v = (row as unknown as Record<string, unknown>)[i.name];
    if (v === undefined || v === null || v === "") return i.required === true;
    return i.oneOf !== undefined && !i.oneOf.includes(String(v));
  });
}

/** Plays the queue in order against a snapshot, as the ticket's rules say. */
function expected(start: Snapshot, vendor: Vendor): Expected[] {
  const placements = new Map((start.entities.placement ?? []).map((p) => [p.id, { deleted: p.deleted, state: String(p.record.state) }]));
  const candidates = new Map((start.entities.candidate ?? []).map((c) => [c.id, c]));
  const booked = new Map<string, string | null>();
  for (const p of start.entities.placement ?? []) if (!p.deleted && !booked.has(bookKey(p.record.candidate_id, p.record.client))) booked.set(bookKey(p.record.candidate_id, p.record.client), p.id);
  return REPAIRS.map((row): Expected => {
    if (row.kind === "restate") {
      const p = placements.get(String(row.placement_id));
      const id = String(row.placement_id);
      if (!p || p.deleted) return { row, outcome: "rejected", reason: "placement_not_found", placementId: id };
      if (p.state === row.to_state) return { row, outcome: "already_applied", reason: null, placementId: id, state: p.state };
      if (p.state !== row.from_state) return { row, outcome: "conflict", reason: null, placementId: id, state: p.state };
      p.state = String(row.to_state);
      return { row, outcome: "applied", reason: null, placementId: id, state: p.state };
    }
    const c = candidates.get(String(row.candidate_id));
    if (!c) return { row, outcome: "rejected", reason: "candidate_not_found", placementId: null };
    if (c.deleted) return { row, outcome: "rejected", reason: "candidate_archived", placementId: null };
    const key = bookKey(row.candidate_id, row.client);
    if (booked.has(key)) return { row, outcome: "already_applied", reason: null, placementId: booked.get(key) ?? null, key };
    if (refusedBy(vendor, row)) return { row, outcome: "rejected", reason: "refused", placementId: null, key };
    booked.set(key, null);
    return { row, outcome: "applied", reason: null, placementId: null, key };
  });
}

/** Placements created between two snapshots, by booking key. */
function createdByKey(before: Snapshot, after: Snapshot): Map<string, SnapshotRecord[]> {
  const had = new Set((before.entities.placement ?? []).map((p) => p.id));
  const out = new Map<string, SnapshotRecord[]>();
  for (const p of after.entities.placement ?? []) {
    if (had.has(p.id)) continue;
    const k = bookKey(p.record.candidate_id, p.record.client);
    out.set(k, [...(out.get(k) ?? []), p]);
  }
  return out;
}

/** Whether a created placement carries its rebook row's values. */
function carries(p: SnapshotRecord, r: Repair): boolean {
  return (["candidate_id", "agency_id", "client", "job_title", "work_location", "bill_rate", "currency", "state"] as const).every((f) => p.record[f] === r[f]);
}

/** Every restated placement ends in the state the queue, played in order, gives it. */
function judgeRestates(c: CheckRecorder, name: string, plan: Expected[], after: Snapshot, level: "l1" | "l3"): void {
  const final = new Map<string, string>();
  for (const x of plan) if (x.row.kind === "restate" && x.state !== undefined) final.set(String(x.placementId), x.state);
  const now = new Map((after.entities.placement ?? []).map((p) => [p.id, String(p.record.state)]));
  const wrong = [...final].filter(([id, s]) => now.get(id) !== s).map(([id, s]) => `${id}: ${now.get(id)} (should be ${s})`);
  c.check(name, wrong.length === 0, {
    basis: { ticket: "move placement `placement_id` from `from_state` to `to_state`" },
    pass: 2,
    mandatory: true,
    level,
    detail: wrong.length ? `${wrong.length} placements not in the state the queue gives them: ${fewIds(wrong)}` : `${final.size} restated placements each in the state the queue gives them`,
  });
}

/** Each rebook GlobalHire should take is booked once, with the row's values; nothing else is booked. */
function judgeRebooks(c: CheckRecorder, plan: Expected[], before: Snapshot, after: Snapshot): void {
  const made = createdByKey(before, after);
  const wrong: string[] = [];
  const wanted = new Set<string>();
  for (const x of plan) {
    if (x.row.kind !== "rebook" || x.outcome !== "applied") continue;
    wanted.add(String(x.key));
    const got = made.get(String(x.key)) ?? [];
    if (got.length !== 1 || !carries(got[0], x.row)) wrong.push(`${x.row.repair_id}: ${got.length} placements${got.length === 1 ? " with other values" : ""}`);
  }
  const stray = [...made].filter(([k]) => !wanted.has(k)).flatMap(([, ps]) => ps.map((p) => p.id));
  c.check("each_rebook_booked_once", wanted.size > 0 && !wrong.length && !stray.length, {
    basis: {
      ticket:
        "A candidate can hold only one live placement per client: when GlobalHire already holds one for this candidate and client (booked by a branch, an earlier row of the queue, or an earlier run), there is nothing to do.",
    },
    pass: 2,
    mandatory: true,
    level: "l1",
    detail:
      wrong.length || stray.length
        ? [
            wrong.length && `${wrong.length} rebooks not booked exactly once (${fewIds(wrong)})`,
            stray.length && `${stray.length} placements booked for no rebook GlobalHire should take (${fewIds(stray)})`,
          ]
            .filter(Boolean)
            .join("; ")
        : `${wanted.size} placements booked once each`,
  });
}

/** Nothing outside the queue changed: only restated placements moved, no candidate or agency touched. */
function judgeNothingElse(c: CheckRecorder, plan: Expected[], before: Snapshot, after: Snapshot): void {
  const restated = new Set(plan.filter((x) => x.outcome === "applied" && x.row.kind === "restate").map((x) => String(x.placementId)));
  const changed: string[] = [];
  for (const [entity, rows] of Object.entries(after.entities)) {
    const had = new Map((before.entities[entity] ?? []).map((r) => [r.id, r]));
    for (const r of rows) {
      const old = had.get(r.id);
      if (!old || (entity === "placement" && restated.has(r.id))) continue;
      if (JSON.stringify(old) !== JSON.stringify(r)) changed.push(`${entity} ${r.id}`);
    }
  }
  c.check("nothing_else_changed", changed.length === 0, {
    basis: { ticket: "Nothing outside the queue is changed." },
    mandatory: true,
    detail: changed.length ? `${changed.length} records the queue does not change were written (${fewIds(changed)})` : "only the placements the queue changes were written",
  });
}

/** One report row true to GlobalHire: null when it is, else what is wrong. */
function rowProblem(x: Expected, row: ReportRow | undefined, made: Map<string, SnapshotRecord[]>, end: Snapshot): string | null {
  const id = x.row.repair_id;
  if (!row) return `${id}: no row`;
  if (row.outcome !== x.outcome || row.reason !== x.reason)
    return `${id}: ${JSON.stringify(row.outcome)}/${JSON.stringify(row.reason)} (GlobalHire says ${x.outcome}${x.reason ? `/${x.reason}` : ""})`;
  if (x.row.kind === "restate") return row.placement_id === x.placementId ? null : `${id}: placement_id ${JSON.stringify(row.placement_id)}`;
  if (x.outcome === "rejected") return row.placement_id === null ? null : `${id}: placement_id ${JSON.stringify(row.placement_id)} for a rejected rebook`;
  const live = (end.entities.placement ?? []).filter((p) => !p.deleted && bookKey(p.record.candidate_id, p.record.client) === x.key).map((p) => p.id);
  const ok = x.outcome === "applied" ? (made.get(String(x.key)) ?? []).some((p) => p.id === row.placement_id) : live.includes(String(row.placement_id));
  return ok ? null : `${id}: placement_id ${JSON.stringify(row.placement_id)}; GlobalHire holds ${live.join(", ") || "none"}`;
}

/** The report: one row per repair, in queue order, each true to GlobalHire. */
function judgeReport(c: CheckRecorder, name: string, run: ConnectorRun, plan: Expected[], start: Snapshot, end: Snapshot, level: "l1" | "l3"): void {
  const rows = objects(outputRows<ReportRow>(run, REPORT));
  const made = createdByKey(start, end);
  const byId = new Map<string, ReportRow[]>();
  for (const r of rows) byId.set(String(r.repair_id), [...(byId.get(String(r.repair_id)) ?? []), r]);
  const problems = plan.map((x) => {
    const mine = byId.get(x.row.repair_id) ?? [];
    return mine.length > 1 ? `${x.row.repair_id}: ${mine.length} rows` : rowProblem(x, mine[0], made, end);
  });
  const wrong = problems.filter((p): p is string => p !== null);
  const extra = [...byId.keys()].filter((k) => !REPAIRS.some((r) => r.repair_id === k));
  const sorted = rows.every((r, i) => i === 0 || String(rows[i - 1].repair_id) < String(r.repair_id));
  const ok = !wrong.length && !extra.length && sorted;
  c.check(name, ok, {
    basis: { ticket: "The report must be true to GlobalHire as it stands when the job ends: Finance reconciles it line by line." },
    pass: 2,
    mandatory: true,
    level,
    detail: ok
      ? `${plan.length} rows, each true to GlobalHire`
      : [wrong.length && `${wrong.length} rows wrong (${fewIds(wrong)})`, extra.length && `${extra.length} rows for no repair`, !sorted && "not in repair_id order"].filter(Boolean).join("; "),
  });
}

/** Repairs that follow an applied repair of the same placement were decided on its fresh state, not a cached copy. */
function judgeChains(c: CheckRecorder, e: ScenarioEvidence, plan: Expected[], run: ConnectorRun): void {
  const rows = new Map(objects(outputRows<ReportRow>(run, REPORT)).map((r) => [String(r.repair_id), r]));
  const touched = new Set<string>();
  const followers: Expected[] = [];
  for (const x of plan) {
    if (x.row.kind !== "restate") continue;
    if (touched.has(String(x.placementId))) followers.push(x);
    if (x.outcome === "applied") touched.add(String(x.placementId));
  }
  const stale = (e.requests[ROLE] ?? []).filter((r) => r.faults.includes(STALE));
  const wrong = followers.filter((x) => rows.get(x.row.repair_id)?.outcome !== x.outcome);
  c.check("chained_repairs_decided_on_fresh_reads", followers.length > 0 ? wrong.length === 0 : run.exitCode === 0, {
    basis: { ticket: "earlier rows of the queue may already have moved it" },
    level: "l2",
    detail: `${followers.length} repairs follow an applied repair of the same placement, ${wrong.length} decided wrong; ${stale.length} reads were answered from GlobalHire's cache`,
  });
}

/** Rebooks for archived candidates are refused as such and never booked. */
function judgeArchived(c: CheckRecorder, plan: Expected[], run: ConnectorRun, before: Snapshot, after: Snapshot): void {
  const rows = new Map(objects(outputRows<ReportRow>(run, REPORT)).map((r) => [String(r.repair_id), r]));
  const archived = plan.filter((x) => x.reason === "candidate_archived");
  const made = createdByKey(before, after);
  const wrong = archived.filter((x) => rows.get(x.row.repair_id)?.reason !== "candidate_archived" || (made.get(bookKey(x.row.candidate_id, x.row.client)) ?? []).length > 0);
  c.check("archived_candidates_not_booked", archived.length > 0 ? wrong.length === 0 : run.exitCode === 0, {
    basis: { ticket: "Candidates that do not exist or are archived are rejected; never book for them." },
    level: "l2",
    detail: `${archived.length} rebooks name an archived candidate; ${wrong.length} of them booked or not reported candidate_archived${wrong.length ? ` (${fewIds(wrong.map((x) => x.row.repair_id))})` : ""}`,
  });
}

/** A batch refused with 413 is split and the booking carries on, without sending the same batch twice. */
function judgeSplit(c: CheckRecorder, e: ScenarioEvidence, vendor: Vendor, run: ConnectorRun): void {
  const path = writeOf(vendor, BULK).path;
  const all = e.requests[ROLE] ?? [];
  const bulk = all.filter((r) => r.method === "POST" && r.path === path && r.epoch === all[0]?.epoch);
  const refused = bulk.filter((r) => r.status === 413);
  const taken = bulk.filter((r) => r.status === 207);
  const cap = vendor.faults.find((f) => f.id === CAP_413);
  const maxItems = cap && "maxItems" in cap ? Number(cap.maxItems) : writeOf(vendor, BULK).maxItems;
  const size = (r: RequestLogEntry) => (Array.isArray(bodyOf(r).placements) ? (bodyOf(r).placements as unknown[]).length : 0);
  if (!refused.length) {
    c.check("oversized_batches_split", run.exitCode === 0 && taken.length > 0, {
      basis: { vendor: "GlobalHire refuses a placement batch over its real item cap, which is below the documented one, with 413" },
      level: "l2",
      detail: taken.length ? `no batch over GlobalHire's cap of ${maxItems} was sent` : "no batch was taken",
    });
    return;
  }
  const repeated = refused.filter((r, i) => refused.findIndex((x) => JSON.stringify(x.body) === JSON.stringify(r.body)) !== i);
  const later = taken.filter((r) => r.seq > refused[0].seq && size(r) <= maxItems);
  c.check("oversized_batches_split", refused.length <= 6 && !repeated.length && later.length > 0, {
    basis: { vendor: "GlobalHire refuses a placement batch over its real item cap, which is below the documented one, with 413" },
    level: "l2",
    detail: `${refused.length} batches refused with 413 (largest ${Math.max(...refused.map(size))}), ${repeated.length} sent again unchanged; ${later.length} smaller batches taken after the first 413`,
  });
}

/** The rerun changed nothing: every repair was already in GlobalHire. */
function judgeRerunQuiet(c: CheckRecorder, first: Snapshot, final: Snapshot): void {
  const changed: string[] = [];
  for (const [entity, rows] of Object.entries(final.entities)) {
    const had = new Map((first.entities[entity] ?? []).map((r) => [r.id, r]));
    for (const r of rows) if (JSON.stringify(had.get(r.id)) !== JSON.stringify(r)) changed.push(`${entity} ${r.id}`);
  }
  c.check("rerun_applied_nothing_again", changed.length === 0, {
    basis: { ticket: "A rerun of the same queue writes nothing that is already in GlobalHire and reports it truthfully." },
    pass: 2,
    mandatory: true,
    level: "l3",
    detail: changed.length ? `the rerun wrote ${changed.length} records again (${fewIds(changed)})` : "the rerun wrote nothing",
  });
}

export default defineTask({
  id: "task-0016",
  title: "Harden the GlobalHire placement repair job: decide on fresh reads, book in batches GlobalHire takes, rerun safely",
  kind: "harden",
  roles: { [ROLE]: { vendor: "globalhire", checkpoint: 3 } },
  seed: 16,
  docsProfile: "stale",
  surfaces: ["polling", "writeback"],
  primaryMechanic: "cache_revalidated_join_then_adaptive_batch_write",
  entry: { command: ["node", "src/main.ts"], subcommands: ["repair"] },
  outputs: {
    [REPORT]: jsonRows(
      z.looseObject({ repair_id: z.string(), outcome: z.enum(["applied", "already_applied", "conflict", "rejected"]), reason: z.string().nullable(), placement_id: z.string().nullable() }),
    ),
  },
  timeLimitS: 30,
  scenarios: [
    {
      name: "repair_queue_then_rerun",
      judge: (e, c, ctx: JudgeContext) => {
        const vendor = ctx.vendors[ROLE];
        const before = e.snapshots.before[ROLE];
        const after = e.snapshots.after_repair[ROLE];
        const final = e.snapshots.after_rerun[ROLE];
        const plan = expected(before, vendor);
        const run = byLabel(e, "repair");
        if (plumbing(c, "repair_exit_ok", run, [REPORT], { ticket: "Exit 0 when every row has been decided, non-zero when the job could not finish." })) {
          judgeRestates(c, "restated_placements_end_as_queue_says", plan, after, "l1");
          judgeRebooks(c, plan, before, after);
          judgeNothingElse(c, plan, before, after);
          judgeReport(c, "repair_report_true_to_globalhire", run!, plan, before, after, "l1");
          judgeChains(c, e, plan, run!);
          judgeArchived(c, plan, run!, before, after);
          judgeSplit(c, e, vendor, run!);
        }
        const rerun = byLabel(e, "rerun");
        if (!plumbing(c, "rerun_exit_ok", rerun, [REPORT], { ticket: "Exit 0 when every row has been decided, non-zero when the job could not finish." })) return;
        judgeRerunQuiet(c, after, final);
        judgeRestates(c, "rerun_placements_still_as_queue_says", plan, final, "l3");
        judgeReport(c, "rerun_report_true_to_globalhire", rerun!, expected(after, vendor), after, final, "l3");
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "Credentials go in headers, never in URLs.",
    no_secrets_echoed_to_vendor: "Credentials go in headers, never in URLs.",
  },
});
