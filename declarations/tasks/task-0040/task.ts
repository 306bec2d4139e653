import { defineTask, type JudgeContext } from "../../schema/task.ts";
import type { Paging } from "../../schema/pagination.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import { type MirrorRow, byLabel, compareRows, expectedRows, fewIds, mirrorOutputs, outputRows, plumbing } from "../shared/judging.ts";

export const ROLE = "crew";
/** The mirrored entities and their files, in the order the judge reports them. */
const ENTITIES = [
  { entity: "worker", file: "workers.json" },
  { entity: "gig", file: "gigs.json" },
  { entity: "assignment", file: "assignments.json" },
] as const;
const FILES = ENTITIES.map((x) => x.file);

/** Faults the scenarios arm (declared in declarations/vendors/crewcall.ts). */
export const WORKERS_DRIFT = "cc-summit-workers-drift";
export const WORKERS_500 = "cc-summit-workers-500-page-3";
export const BURST_429 = "cc-summit-burst-429";
export const ASSIGNMENTS_502 = "cc-assignments-502-page-2";
export const WORKERS_DOWN = "cc-summit-workers-page-3-down";
/**
 * The checkpoint the rerun of the outage scenario meets: half a day of roster changes later.
 * Sign-ups join the end of the list; leavers among the workers the first run had read (one to
 * three in the task's seed and in four of the five other seeds) move the rest of it up.
 */
export const RERUN_CHECKPOINT = 2;
/** Records a resumed run may read again (an overlap page, a re-read of the list's head) and still count as resumed. */
const REREAD_ALLOWANCE = 250;

const BASES = {
  exitOk: { ticket: "`backfill` exits 0 when it finished and wrote the three mirrors." },
  match: { ticket: "the mirrors match CrewCall after every finished run" },
  once: { ticket: "Each record appears once in its file." },
  deleted: { ticket: "A record deleted in CrewCall after the job mirrored it stays in its file with `is_deleted: true`." },
  resumed: { ticket: "If a previous `backfill` stopped part-way (it crashed, was killed, or gave up), continue from where it stopped instead of starting over." },
  between: {
    ticket: "whatever changed, appeared or was deleted in CrewCall between the two runs is in the mirrors too",
  },
};

/** The list endpoint of an entity of the role's vendor, with its paging. */
function listApi(ctx: JudgeContext, entity: string) {
  const vendor = ctx.vendors[ROLE];
  const resource = vendor.resources.find((r) => r.name === entity)!;
  const paging: Paging = resource.paging ?? vendor.paging;
  const p = paging.style === "offset" ? paging : null;
  return {
    entity,
    list: resource.list!,
    incrementalParam: vendor.incremental?.param ?? "",
    offsetParam: p?.offsetParam ?? "offset",
    limitParam: p?.limitParam ?? "limit",
    defaultLimit: paging.defaultLimit,
    maxLimit: paging.maxLimit,
    timestamps: resource.fields.filter((f) => f.type === "timestamp").map((f) => f.name),
  };
}
type Api = ReturnType<typeof listApi>;

/** Full (not incremental) GETs of one list, in log order, optionally of one epoch. */
function listCalls(e: ScenarioEvidence, api: Api, epoch?: number): RequestLogEntry[] {
  return (e.requests[ROLE] ?? [])
    .filter((r) => r.method === "GET" && r.path === api.list && r.query[api.incrementalParam] === undefined && (epoch === undefined || r.epoch === epoch))
    .sort((a, b) => a.seq - b.seq);
}

function offsetOf(r: RequestLogEntry, api: Api): number {
  const n = Number(r.query[api.offsetParam] ?? 0);
  return Number.isFinite(n) ? n : -1;
}

/** List positions a served page covers: the limit the vendor applied (its default, or clamped to its cap). */
function servedIndices(r: RequestLogEntry, api: Api, total: number): number[] {
  const asked = Number(r.query[api.limitParam] ?? api.defaultLimit);
  const limit = Math.min(Number.isFinite(asked) && asked > 0 ? asked : api.defaultLimit, api.maxLimit);
  const from = offsetOf(r, api);
  const out: number[] = [];
  for (let i = Math.max(0, from); i < Math.min(from + limit, total); i++) out.push(i);
  return out;
}

/** A timestamp as an instant (ms), so any ISO 8601 rendering of the same moment compares equal. */
function asInstant(v: unknown): unknown {
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}T/.test(v)) return v;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? v : ms;
}

function normalise(rows: MirrorRow[], timestamps: string[]): MirrorRow[] {
  return rows.map((r) => {
    if (!r || typeof r !== "object" || !r.data || typeof r.data !== "object") return r;
    const data = { ...r.data };
    for (const f of timestamps) if (f in data) data[f] = asInstant(data[f]);
    return { ...r, data, updated_at: asInstant(r.updated_at) };
  });
}

/**
 * One mirror file against a snapshot (timestamps as instants). Records live at `seen` and
 * deleted since must carry `is_deleted: true` where the file has them; records deleted before
 * the job could have read them may be absent.
 */
function judgeMirror(c: CheckRecorder, run: ConnectorRun, truth: Snapshot, api: Api, file: string, name: string, opts: { seen?: Set<string>; level?: "l1" | "l3" } = {}): void {
  const raw = outputRows(run, file) ?? [];
  const deleted = new Set((truth.entities[api.entity] ?? []).filter((r) => r.deleted).map((r) => r.id));
  const present = new Set(raw.filter((r) => r && typeof r === "object").map((r) => String(r.source_id)));
  // A deleted record the job never had may be left out, or kept flagged.
  const actual = normalise(raw, api.timestamps).filter((r) => !(r && deleted.has(String(r.source_id)) && !opts.seen?.has(String(r.source_id)) && r.is_deleted === true));
  const expected = new Map(
    [...expectedRows(truth, api.entity, { updatedField: "updated_at", seen: opts.seen }).values()]
      .filter((r) => !(r.is_deleted && !present.has(r.source_id)))
      .map((r) => [r.source_id, normalise([r], api.timestamps)[0]]),
  );
  const cmp = compareRows(actual, expected);
  c.check(name, cmp.ok, { basis: BASES.match, pass: 2, fail: 0, mandatory: true, level: opts.level ?? "l1", detail: `${file}: ${cmp.detail}` });
}

/** Every file holds each record once. */
function judgeOnce(c: CheckRecorder, run: ConnectorRun, name: string): void {
  const twice: string[] = [];
  let rows = 0;
  for (const file of FILES) {
    const counts = new Map<string, number>();
    for (const r of outputRows(run, file) ?? []) if (r && typeof r === "object") counts.set(String(r.source_id), (counts.get(String(r.source_id)) ?? 0) + 1);
    rows += counts.size;
    for (const [id, n] of counts) if (n > 1) twice.push(`${file}:${id} x${n}`);
  }
  c.check(name, rows > 0 && twice.length === 0, {
    basis: BASES.once,
    pass: 1,
    fail: 0,
    mandatory: true,
    detail: twice.length ? `${twice.length} records appear more than once (${fewIds(twice)})` : `${rows} rows, each record once`,
  });
}

/**
 * After a failed request for a page, that page is asked for again and served, and until it is
 * served no page that had already been served is read again: the crawl retried in place
 * instead of starting over (pages read in parallel may go on meanwhile).
 */
function retriedInPlace(calls: RequestLogEntry[], failure: RequestLogEntry, api: Api): string | null {
  const at = offsetOf(failure, api);
  const served = calls.find((x) => x.seq > failure.seq && offsetOf(x, api) === at && x.status === 200);
  if (!served) return `the page at offset ${at} that answered ${failure.status} (#${failure.seq}) was never read successfully`;
  const before = new Set(calls.filter((x) => x.seq < failure.seq && x.status === 200).map((x) => offsetOf(x, api)));
  const rewound = calls.find((x) => x.seq > failure.seq && x.seq < served.seq && before.has(offsetOf(x, api)));
  if (rewound) return `after the ${failure.status} at offset ${at} (#${failure.seq}), request #${rewound.seq} read offset ${offsetOf(rewound, api)} again before the failed page was served`;
  return null;
}

/** Whether a run's three mirrors hold every record live at `truth`, as it has them. */
function outageComplete(run: ConnectorRun, truth: Snapshot, ctx: JudgeContext): boolean {
  return ENTITIES.every(({ entity, file }) => {
    const api = listApi(ctx, entity);
    const expected = new Map([...expectedRows(truth, entity, { updatedField: "updated_at" }).values()].map((r) => [r.source_id, normalise([r], api.timestamps)[0]]));
    return compareRows(normalise(outputRows(run, file) ?? [], api.timestamps), expected).ok;
  });
}

export default defineTask({
  id: "task-0040",
  title: "CrewCall crew ledger back-fill: survive page drift, 5xx and rate limits at once, resume where it stopped, end as CrewCall is",
  kind: "harden",
  roles: { [ROLE]: { vendor: "crewcall", checkpoint: 0, scale: 3 } },
  seed: 7,
  docsProfile: "true",
  surfaces: ["polling"],
  primaryMechanic: "fault_composition_summit",
  entry: { command: ["node", "src/main.ts"], subcommands: ["backfill"] },
  outputs: mirrorOutputs(FILES),
  timeLimitS: 60,
  scenarios: [
    {
      // One night: the roster drifts under the worker crawl, a worker page answers 500 twice,
      // a rate-limit window opens, an assignments page answers 502 once.
      name: "backfill_through_faults",
      judge: (e, c, ctx) => {
        const run = byLabel(e, "backfill");
        const workers = listApi(ctx, "worker");
        const calls = listCalls(e, workers);
        const errors = calls.filter((r) => r.status >= 500 && r.faults.includes(WORKERS_500));
        const problem = errors.length ? (errors.map((f) => retriedInPlace(calls, f, workers)).find((p) => p !== null) ?? null) : "the crawl never reached the failing page of workers";
        c.check("failed_page_retried_in_place", problem === null, {
          basis: { ticket: "retry a failed page rather than the whole crawl" },
          pass: 2,
          fail: 0,
          mandatory: true,
          level: "l3",
          detail: problem ?? `the worker page at offset ${offsetOf(errors[0], workers)} answered 500 ${errors.length} times and was retried in place until served`,
        });
        const limited = (e.requests[ROLE] ?? []).filter((r) => r.rateLimited).sort((a, b) => a.seq - b.seq);
        const all = (e.requests[ROLE] ?? []).slice().sort((a, b) => a.seq - b.seq);
        const unanswered = limited.filter((l) => !all.some((x) => x.seq > l.seq && x.path === l.path && x.status === 200 && JSON.stringify(x.query) === JSON.stringify(l.query)));
        c.check("rate_limited_request_retried", limited.length > 0 && unanswered.length === 0, {
          basis: { ticket: "Temporary trouble (a rate-limit window, an odd 5xx) must not stop the run." },
          pass: 1,
          fail: 0,
          level: "l3",
          detail: !limited.length
            ? "the crawl never reached the rate-limit window"
            : unanswered.length
              ? `${unanswered.length} of ${limited.length} rate-limited requests were never asked again and served (first #${unanswered[0].seq})`
              : `${limited.length} rate-limited requests, each asked again and served`,
        });
        if (!plumbing(c, "backfill_exit_ok", run, FILES, BASES.exitOk)) return;
        const truth = e.snapshots.after_backfill[ROLE];
        for (const { entity, file } of ENTITIES) judgeMirror(c, run!, truth, listApi(ctx, entity), file, `backfill_${entity}s_match`);
        judgeOnce(c, run!, "backfill_no_duplicate_rows");
      },
    },
    {
      // A worker page is down for the whole first run, which must give up. The rerun meets the
      // tenant half a day later (sign-ups at the end of the list, leavers among the workers
      // already read, updates): a rerun that picks up at the raw offset skips as many workers.
      name: "outage_then_resume_later",
      judge: (e, c, ctx) => {
        const outage = byLabel(e, "backfill_outage");
        const rerun = byLabel(e, "backfill_rerun");
        const epochs = e.epochs[ROLE] ?? [];
        const [outageEpoch, rerunEpoch] = epochs.slice(-2);
        const start = e.snapshots.start[ROLE];
        const end = e.snapshots.end[ROLE];
        const workers = listApi(ctx, "worker");
        const hit = listCalls(e, workers, outageEpoch).filter((r) => r.faults.includes(WORKERS_DOWN));
        // A run that read around the stuck page (another page size) and finished is no failure either.
        const finished = !!outage && outage.exitCode === 0 && outageComplete(outage, start, ctx);
        c.check("outage_run_not_reported_as_success", !!outage && hit.length > 0 && (outage.exitCode !== 0 || finished), {
          basis: {
            ticket: "When CrewCall keeps failing on a request for more than a few seconds, stop: exit non-zero, keep the progress made so far, and let the scheduler's next run finish the job.",
          },
          pass: 1,
          fail: 0,
          level: "l3",
          detail: !outage
            ? "the connector did not run"
            : !hit.length
              ? "the first run never reached the failing page of workers"
              : outage.exitCode !== 0
                ? `the run gave up with exit ${outage.exitCode ?? "(killed)"}`
                : finished
                  ? "the run read around the failing page and finished with complete mirrors"
                  : "the run exited 0 although its mirrors are incomplete",
        });

        // Records each list position the first run was served, and how many the rerun read again.
        let covered = 0;
        let reread = 0;
        const coveredIds = new Map<string, Set<string>>();
        for (const { entity } of ENTITIES) {
          const api = listApi(ctx, entity);
          const order = (start.entities[entity] ?? [])
            .filter((r) => !r.deleted)
            .map((r) => r.id)
            .sort((a, b) => Number(a) - Number(b));
          const first = new Set(
            listCalls(e, api, outageEpoch)
              .filter((r) => r.status === 200)
              .flatMap((r) => servedIndices(r, api, order.length)),
          );
          coveredIds.set(entity, new Set([...first].map((i) => order[i])));
          covered += first.size;
          reread += new Set(
            listCalls(e, api, rerunEpoch)
              .filter((r) => r.status === 200)
              .flatMap((r) => servedIndices(r, api, Number.POSITIVE_INFINITY))
              .filter((i) => first.has(i)),
          ).size;
        }
        const resumed = hit.length > 0 && covered > 0 && !!rerun && (finished || reread <= REREAD_ALLOWANCE);
        c.check("rerun_resumed_not_restarted", resumed, {
          basis: BASES.resumed,
          pass: 2,
          fail: 0,
          mandatory: true,
          level: "l3",
          detail: !hit.length
            ? "the first run never reached the failing page of workers"
            : finished
              ? "the first run finished in spite of the failing page: the rerun had nothing to resume"
              : `the first run was served ${covered} list positions before it stopped; the rerun read ${reread} of them again${resumed ? "" : ` (more than ${REREAD_ALLOWANCE}: it started over)`}`,
        });

        if (!plumbing(c, "rerun_exit_ok", rerun, FILES, BASES.exitOk)) return;
        const liveAtStart = new Set(ENTITIES.flatMap(({ entity }) => (start.entities[entity] ?? []).filter((r) => !r.deleted).map((r) => r.id)));
        for (const { entity, file } of ENTITIES) judgeMirror(c, rerun!, end, listApi(ctx, entity), file, `resumed_${entity}s_match`, { seen: liveAtStart, level: "l3" });
        judgeOnce(c, rerun!, "resumed_no_duplicate_rows");

        // Records the first run had mirrored and CrewCall deleted before the rerun: kept, flagged.
        const missed: string[] = [];
        let gone = 0;
        for (const { entity, file } of ENTITIES) {
          const had = coveredIds.get(entity) ?? new Set<string>();
          const rows = new Map((outputRows(rerun, file) ?? []).filter((r) => r && typeof r === "object").map((r) => [String(r.source_id), r]));
          for (const r of end.entities[entity] ?? []) {
            if (!r.deleted || !had.has(r.id)) continue;
            gone += 1;
            if (rows.get(r.id)?.is_deleted !== true) missed.push(`${entity} ${r.id}`);
          }
        }
        c.check("deleted_between_runs_flagged", missed.length === 0, {
          basis: BASES.between,
          pass: 1,
          fail: 0,
          detail: missed.length
            ? `${missed.length} of ${gone} records deleted between the runs are not flagged (${fewIds(missed)})`
            : `${gone} records deleted between the runs kept with is_deleted: true`,
        });
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "keep credentials out of URLs",
    no_secrets_echoed_to_vendor: "keep credentials out of URLs",
    retry_after_honored: "When it asks us to wait, wait as long as it asks",
    resume_not_restart_after_5xx: "retry a failed page rather than the whole crawl",
    no_hot_loop_on_error: "do not hammer a failing endpoint",
  },
});
