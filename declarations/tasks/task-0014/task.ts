import { defineTask, type JudgeContext } from "../../schema/task.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import { DAY_MS, fewIds, outputRows, plumbing } from "../shared/judging.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { z } from "zod";

export const ROLE = "ats";
const CHANGES = "changes.json";
const LOAD_CONTROL = "load_control.json";
const FILES = [CHANGES, LOAD_CONTROL];
/** The entities the feed carries, as the ticket names them (the vendor's resource names). */
const ENTITIES = ["candidate", "placement"];
/** Faults the scenarios arm (declared in declarations/vendors/globalhire.ts). */
export const RATE_WINDOW = "gh-second-request-429";
export const PLACEMENTS_502 = "gh-placements-502-first-page";
export const PLACEMENTS_DOWN = "gh-placements-down";
/** The hourly catch-ups of the main scenario: run label and the checkpoint it reads. */
export const CATCH_UPS = [
  { label: "catch_up_1", checkpoint: 1 },
  { label: "catch_up_2", checkpoint: 2 },
  { label: "catch_up_3", checkpoint: 3 },
];

/** What the judges need of one entity, read from the vendor's declaration. */
interface EntityApi {
  name: string;
  list: string;
  idField: string;
  updated: string;
  timestamps: string[];
  /** The field that marks a deleted record in lists, if the vendor has one (the ticket never names it). */
  flag: string | null;
}

function entityApis(ctx: JudgeContext): EntityApi[] {
  const vendor = ctx.vendors[ROLE];
  const flag = "field" in vendor.deletes && typeof vendor.deletes.field === "string" ? vendor.deletes.field : null;
  return ENTITIES.map((name) => {
    const r = vendor.resources.find((x) => x.name === name)!;
    return {
      name,
      list: r.list!,
      idField: r.idField,
      updated: r.fields.find((f) => f.gen.gen === "updatedAt")!.name,
      timestamps: r.fields.filter((f) => f.type === "timestamp").map((f) => f.name),
      flag,
    };
  });
}

const incrementalParam = (ctx: JudgeContext) => ctx.vendors[ROLE].incremental?.param ?? "";

/** An ISO 8601 instant that says where it is (`Z` or an offset), in ms; null for anything else. */
function instant(v: unknown): number | null {
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v.trim())) return null;
  const ms = Date.parse(v.trim());
  return Number.isNaN(ms) ? null : ms;
}

/** A record's data in a form where equal data compares equal: keys sorted, timestamps as instants, the delete flag left out. */
function canonical(data: unknown, api: EntityApi): string {
  if (!data || typeof data !== "object" || Array.isArray(data)) return JSON.stringify(data);
  const d = data as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(d).sort()) {
    if (k === api.flag || k === api.idField) continue;
    out[k] = api.timestamps.includes(k) && d[k] !== null ? (instant(d[k]) ?? `unreadable ${String(d[k])}`) : d[k];
  }
  return JSON.stringify(out);
}

/** Latest `updated_at` instant of an entity in a snapshot, deleted records included. */
function highWater(s: Snapshot, api: EntityApi): number | null {
  let max: number | null = null;
  for (const r of s.entities[api.name] ?? []) {
    const at = instant(r.record[api.updated]);
    if (at !== null && (max === null || at > max)) max = at;
  }
  return max;
}

interface Wanted {
  deleted: boolean;
  updatedMs: number | null;
  data: string;
}

/**
 * What a run must deliver for one entity: every record whose version differs
 * between the two snapshots (new, changed or deleted). A record created and
 * deleted in between may be delivered as a delete or left out.
 */
function wantedChanges(prev: Snapshot | null, cur: Snapshot, api: EntityApi): { want: Map<string, Wanted>; optional: Set<string> } {
  const before = new Map((prev?.entities[api.name] ?? []).map((r) => [r.id, instant(r.record[api.updated])]));
  const want = new Map<string, Wanted>();
  const optional = new Set<string>();
  for (const r of cur.entities[api.name] ?? []) {
    const at = instant(r.record[api.updated]);
    if (before.has(r.id) && before.get(r.id) === at) continue;
    if (!before.has(r.id) && r.deleted) optional.add(r.id);
    else want.set(r.id, { deleted: r.deleted, updatedMs: at, data: canonical(r.record, api) });
  }
  return { want, optional };
}

/** How one run's changes.json compares with what it had to deliver. Ids are `entity:source_id`. */
interface Batch {
  rows: number;
  malformed: number;
  /** Changes it had to deliver and did not. */
  missing: string[];
  /** Records delivered that had not changed (or that GlobalHire does not have). */
  stale: string[];
  /** Records delivered more than once. */
  twice: string[];
  /** Upserts whose data or updated_at is not the record's. */
  wrong: string[];
  /** Live records delivered as deletes. */
  liveAsDelete: string[];
  /** Deleted records it had to deliver, and those it delivered as upserts. */
  deletes: string[];
  deletesAsUpsert: string[];
}

interface ChangeRow {
  entity?: unknown;
  source_id?: unknown;
  op?: unknown;
  updated_at?: unknown;
  data?: unknown;
}

function judgeBatch(run: ConnectorRun, prev: Snapshot | null, cur: Snapshot, apis: EntityApi[]): Batch {
  const rows = outputRows<ChangeRow>(run, CHANGES) ?? [];
  const b: Batch = { rows: rows.length, malformed: 0, missing: [], stale: [], twice: [], wrong: [], liveAsDelete: [], deletes: [], deletesAsUpsert: [] };
  for (const api of apis) {
    const { want, optional } = wantedChanges(prev, cur, api);
    const seen = new Map<string, number>();
    for (const row of rows) {
      if (!row || typeof row !== "object" || row.entity !== api.name) continue;
      if (typeof row.source_id !== "string") {
        b.malformed += 1;
        continue;
      }
      const id = row.source_id;
      const key = `${api.name}:${id}`;
      seen.set(id, (seen.get(id) ?? 0) + 1);
      if (seen.get(id) === 2) b.twice.push(key);
      if (seen.get(id)! > 1) continue;
      const w = want.get(id);
      if (!w) {
        if (!optional.has(id)) b.stale.push(key);
        else if (row.op !== "delete") b.deletesAsUpsert.push(key);
        continue;
      }
      if (w.deleted) {
        if (row.op !== "delete") b.deletesAsUpsert.push(key);
      } else if (row.op !== "upsert") b.liveAsDelete.push(key);
      else if (instant(row.updated_at) !== w.updatedMs || canonical(row.data, api) !== w.data) b.wrong.push(key);
    }
    for (const [id, w] of want) {
      if (!seen.has(id)) b.missing.push(`${api.name}:${id}`);
      if (w.deleted) b.deletes.push(`${api.name}:${id}`);
    }
  }
  b.malformed += rows.filter((r) => !r || typeof r !== "object" || !ENTITIES.includes(String(r.entity))).length;
  return b;
}

/** The problems of a batch that break completeness or exactness, for a check's detail; empty when clean. */
function batchProblems(b: Batch, parts: ("missing" | "stale" | "twice" | "wrong" | "liveAsDelete" | "deletesAsUpsert" | "malformed")[]): string[] {
  const labels = {
    missing: "changes missing",
    stale: "unchanged or unknown records delivered",
    twice: "records delivered twice",
    wrong: "upserts with the wrong data or updated_at",
    liveAsDelete: "live records delivered as deletes",
    deletesAsUpsert: "deleted records delivered as upserts",
  } as const;
  const out: string[] = [];
  for (const p of parts) {
    if (p === "malformed") {
      if (b.malformed) out.push(`${b.malformed} malformed rows`);
      continue;
    }
    if (b[p].length) out.push(`${b[p].length} ${labels[p]} (${fewIds(b[p])})`);
  }
  return out;
}

/** Whether load_control.json states each entity's true high-water mark; the mismatches otherwise. */
function judgeHighWater(run: ConnectorRun, truth: Snapshot, apis: EntityApi[]): string[] {
  const rows = outputRows<{ entity?: unknown; high_water_mark?: unknown }>(run, LOAD_CONTROL) ?? [];
  const out: string[] = [];
  for (const api of apis) {
    const want = highWater(truth, api);
    const row = rows.find((r) => r && typeof r === "object" && r.entity === api.name);
    if (!row) out.push(`no ${api.name} row`);
    else if (instant(row.high_water_mark) !== want) out.push(`${api.name} ${JSON.stringify(row.high_water_mark)}, not ${want === null ? "null" : new Date(want).toISOString()}`);
  }
  return out;
}

const runOf = (e: ScenarioEvidence, label: string) => e.runs.find((r) => r.label === label);
const epochRequests = (e: ScenarioEvidence, epoch: number | undefined) => (e.requests[ROLE] ?? []).filter((r) => r.epoch === epoch).sort((a, b) => a.seq - b.seq);
const requestKey = (r: RequestLogEntry) => `${r.method} ${r.path} ${JSON.stringify(Object.entries(r.query).sort())}`;

/**
 * After a request failed, the same request was asked again until it was
 * served, and nothing already served in the run was asked again: the run
 * retried in place instead of starting over.
 */
function retriedInPlace(calls: RequestLogEntry[], failure: RequestLogEntry): string | null {
  const key = requestKey(failure);
  const servedBefore = new Set(calls.filter((x) => x.seq < failure.seq && x.status === 200).map(requestKey));
  const after = calls.filter((x) => x.seq > failure.seq);
  const again = after.find((x) => servedBefore.has(requestKey(x)));
  if (again) return `after the ${failure.status} on ${failure.path} (#${failure.seq}), request #${again.seq} read ${again.path}?${new URLSearchParams(again.query)} again`;
  if (!after.some((x) => requestKey(x) === key && x.status === 200)) return `the request that answered ${failure.status} (#${failure.seq}, ${failure.path}) was never served`;
  return null;
}

export default defineTask({
  id: "task-0014",
  title: "GlobalHire hourly change feed: watermarks as instants through per-branch UTC offsets, exactly once across catch-ups",
  kind: "build",
  roles: { [ROLE]: { vendor: "globalhire", checkpoint: 0 } },
  seed: 14,
  docsProfile: "stale",
  surfaces: ["polling"],
  primaryMechanic: "local_time_branch_stamps",
  entry: { command: ["node", "src/main.ts"], subcommands: ["sync"] },
  outputs: {
    [CHANGES]: jsonRows(z.looseObject({ entity: z.enum(["candidate", "placement"]), source_id: z.string(), op: z.enum(["upsert", "delete"]), updated_at: z.string(), data: z.unknown() })),
    [LOAD_CONTROL]: jsonRows(z.looseObject({ entity: z.enum(["candidate", "placement"]), high_water_mark: z.string().nullable() })),
  },
  timeLimitS: 30,
  scenarios: [
    {
      // The first run, then one catch-up per checkpoint: a rate-limit window in the first, a
      // server error twice on the placements read (after the candidates) in the last.
      name: "hourly_catch_ups",
      judge: (e, c, ctx) => {
        const apis = entityApis(ctx);
        const initial = runOf(e, "initial");
        const cp0 = e.snapshots.cp0?.[ROLE];
        if (!plumbing(c, "initial_exit_ok", initial, FILES, { ticket: "Exit 0 only when candidates and placements are both fully up to date." }) || !initial || !cp0) return;
        const first = judgeBatch(initial, null, cp0, apis);
        const firstProblems = batchProblems(first, ["missing", "stale", "twice", "wrong", "liveAsDelete", "deletesAsUpsert", "malformed"]);
        c.check("initial_load_complete", firstProblems.length === 0, {
          basis: { ticket: "The first run (no state of yours under `OUTPUT_DIR` yet) delivers every candidate and every placement GlobalHire holds." },
          pass: 2,
          mandatory: true,
          detail: firstProblems.length ? firstProblems.join("; ") : `${first.rows} records delivered, the whole tenant once`,
        });

        const delivered: string[] = [];
        const exact: string[] = [];
        const deleteProblems: string[] = [];
        const marksWrong: string[] = [];
        let deletes = 0;
        let finished = true;
        const initialHigh = judgeHighWater(initial, cp0, apis);
        if (initialHigh.length) marksWrong.push(`initial: ${initialHigh.join(", ")}`);
        for (const { label, checkpoint } of CATCH_UPS) {
          const run = runOf(e, label);
          const prev = e.snapshots[`cp${checkpoint - 1}`]?.[ROLE];
          const cur = e.snapshots[`cp${checkpoint}`]?.[ROLE];
          if (!plumbing(c, `${label}_exit_ok`, run, FILES, { ticket: "Exit 0 only when candidates and placements are both fully up to date." }) || !run || !prev || !cur) {
            finished = false;
            continue;
          }
          const b = judgeBatch(run, prev, cur, apis);
          const d = batchProblems(b, ["missing", "wrong", "liveAsDelete", "malformed"]);
          if (d.length) delivered.push(`${label}: ${d.join("; ")}`);
          const x = batchProblems(b, ["stale", "twice"]);
          if (x.length) exact.push(`${label}: ${x.join("; ")}`);
          deletes += b.deletes.length;
          if (b.deletesAsUpsert.length) deleteProblems.push(`${label}: ${b.deletesAsUpsert.length} as upserts (${fewIds(b.deletesAsUpsert)})`);
          const hw = judgeHighWater(run, cur, apis);
          if (hw.length) marksWrong.push(`${label}: ${hw.join(", ")}`);
        }
        const unfinished = "a catch-up did not finish";
        c.check("catch_ups_deliver_every_change", finished && delivered.length === 0, {
          basis: { ticket: "Every later run delivers exactly what changed at GlobalHire since the last run that exited 0: records created, updated or deleted." },
          pass: 2,
          mandatory: true,
          detail: !finished ? unfinished : delivered.length ? delivered.join(" | ") : "every change of every catch-up delivered with its data",
        });
        c.check("catch_ups_deliver_nothing_twice", finished && exact.length === 0, {
          basis: { ticket: "Each change once, and nothing that did not change." },
          pass: 2,
          mandatory: true,
          detail: !finished ? unfinished : exact.length ? exact.join(" | ") : "no catch-up re-delivered an unchanged record",
        });
        c.check("deletes_delivered_as_deletes", finished && deletes > 0 && deleteProblems.length === 0, {
          basis: { ticket: "`op` is `upsert` for a record that is new or changed and `delete` for a record deleted at GlobalHire." },
          pass: 1,
          mandatory: true,
          detail: !finished ? unfinished : deleteProblems.length ? deleteProblems.join(" | ") : `${deletes} deleted records delivered as deletes`,
        });
        c.check("high_water_marks_are_instants", finished && marksWrong.length === 0, {
          basis: { ticket: "The dashboard alerts when it falls behind GlobalHire, and audit compares it with GlobalHire's own data, so it must be exactly that instant." },
          pass: 2,
          mandatory: true,
          detail: !finished ? unfinished : marksWrong.length ? marksWrong.join(" | ") : "every run stated each entity's latest updated_at",
        });

        // Conduct: each catch-up asked for changes from no later than what the previous run had
        // seen (a later mark leaves a gap), and not from much earlier (that is a re-read).
        const param = incrementalParam(ctx);
        const gaps: string[] = [];
        let asked = 0;
        for (const { checkpoint } of CATCH_UPS) {
          const prev = e.snapshots[`cp${checkpoint - 1}`]?.[ROLE];
          const cur = e.snapshots[`cp${checkpoint}`]?.[ROLE];
          if (!prev || !cur) continue;
          const marks = apis.map((api) => highWater(prev, api)).filter((m): m is number => m !== null);
          const latest = Math.max(...marks);
          for (const api of apis) {
            const own = highWater(prev, api) ?? latest;
            for (const r of epochRequests(e, cur.epoch).filter((x) => x.method === "GET" && x.path === api.list && x.query[param] !== undefined)) {
              asked += 1;
              const at = instant(r.query[param]);
              if (at === null) gaps.push(`#${r.seq} ${param}=${r.query[param]} is not an instant with an offset`);
              else if (at > latest + 1000) gaps.push(`#${r.seq} asked ${api.list} from ${new Date(at).toISOString()}, after the latest change already seen (${new Date(latest).toISOString()})`);
              else if (at < own - DAY_MS) gaps.push(`#${r.seq} asked ${api.list} from ${new Date(at).toISOString()}, more than a day before its high-water mark`);
            }
          }
        }
        if (asked) {
          c.check("catch_up_window_leaves_no_gap", gaps.length === 0, {
            basis: { ticket: "Every later run delivers exactly what changed at GlobalHire since the last run that exited 0: records created, updated or deleted." },
            level: "l2",
            detail: gaps.length ? `${gaps.length} of ${asked} incremental reads: ${gaps.slice(0, 2).join("; ")}` : `${asked} incremental reads, each from the previous high-water mark`,
          });
        }

        // A server error twice on the placements read of the last catch-up.
        const calls = epochRequests(e, e.snapshots.cp3?.[ROLE]?.epoch);
        const failed = calls.filter((r) => r.faults.includes(PLACEMENTS_502) && r.status >= 500);
        if (failed.length) {
          const problem = failed.map((f) => retriedInPlace(calls, f)).find((p) => p !== null) ?? null;
          c.check("transient_5xx_retried_in_place", problem === null, {
            basis: { ticket: "retry a failed request rather than the whole run" },
            level: "l3",
            detail: problem ?? `${failed.length} server errors on ${failed[0].path}, the same request retried until served, nothing re-read`,
          });
        }
      },
    },
    {
      // The placements list is down for a whole catch-up; GlobalHire recovers and the next run
      // must deliver everything since the initial load, once.
      name: "failed_catch_up_made_good",
      judge: (e, c, ctx) => {
        const apis = entityApis(ctx);
        const cp0 = e.snapshots.cp0?.[ROLE];
        const cp1 = e.snapshots.cp1?.[ROLE];
        if (!plumbing(c, "outage_scenario_initial_exit_ok", runOf(e, "initial"), FILES, { ticket: "Exit 0 only when candidates and placements are both fully up to date." }) || !cp0 || !cp1) return;
        const outage = runOf(e, "outage");
        const hits = (e.requests[ROLE] ?? []).filter((r) => r.faults.includes(PLACEMENTS_DOWN));
        if (hits.length && outage) {
          c.check("outage_run_exits_non_zero", outage.exitCode !== null && outage.exitCode !== 0 && !outage.timedOut, {
            basis: { ticket: "When GlobalHire keeps failing for more than a few seconds, give up and exit non-zero" },
            level: "l3",
            detail: outage.timedOut
              ? "the run was still retrying when it was stopped"
              : outage.exitCode === 0
                ? "the run exited 0 although placements could not be read"
                : `the run gave up with exit ${outage.exitCode} after ${hits.length} failed placement reads`,
          });
        }
        const rerun = runOf(e, "rerun");
        if (!plumbing(c, "rerun_exit_ok", rerun, FILES, { ticket: "Exit 0 only when candidates and placements are both fully up to date." }) || !rerun) return;
        const b = judgeBatch(rerun, cp0, cp1, apis);
        const problems = batchProblems(b, ["missing", "stale", "twice", "wrong", "liveAsDelete", "malformed"]);
        c.check("rerun_delivers_every_change_once", problems.length === 0, {
          basis: { ticket: "the next hourly run must then deliver everything since the last successful run, so a failed run must neither lose a change nor move the feed forward." },
          pass: 2,
          mandatory: true,
          level: "l3",
          detail: problems.length ? problems.join("; ") : `${b.rows} changes since the initial load, each once`,
        });
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "keep credentials out of URLs",
    no_secrets_echoed_to_vendor: "keep credentials out of URLs",
    retry_after_honored: "When it asks us to wait, wait as long as it asks",
    no_full_resync_after_incremental: "a run must not read the whole tenant again",
    resume_not_restart_after_5xx: "retry a failed request rather than the whole run",
    no_hot_loop_on_error: "do not hammer a failing endpoint",
  },
});
