import { defineTask, type JudgeContext } from "../../schema/task.ts";
import type { Paging } from "../../schema/pagination.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import { type MirrorRow, compareRows, expectedRows, fewIds, outputRows, plumbing, mirrorOutputs } from "../shared/judging.ts";

export const ROLE = "ats";
const ENTITY = "candidate";
const FILES = ["candidates.json"];
const MIRROR = "candidates.json";
/** Faults the scenarios arm (declared in declarations/vendors/globalhire.ts). */
export const PAGE_7_500 = "gh-candidates-500-page-7";
export const BURST_429 = "gh-candidates-429-burst";
export const PAGE_18_DOWN = "gh-candidates-page-18-down";

/** The candidate resource of the role's vendor: list path, paging, timestamp fields. */
function candidateApi(ctx: JudgeContext) {
  const vendor = ctx.vendors[ROLE];
  const resource = vendor.resources.find((r) => r.name === ENTITY)!;
  const paging: Paging = resource.paging ?? vendor.paging;
  const p = paging.style === "offset" ? paging : null;
  return {
    list: resource.list!,
    incrementalParam: vendor.incremental?.param ?? "",
    offsetParam: p?.offsetParam ?? "offset",
    limitParam: p?.limitParam ?? "limit",
    defaultLimit: paging.defaultLimit,
    maxLimit: paging.maxLimit,
    timestamps: resource.fields.filter((f) => f.type === "timestamp").map((f) => f.name),
  };
}
type Api = ReturnType<typeof candidateApi>;

/** Full (not incremental) GETs of the candidate list, in log order, optionally of one epoch. */
function listCalls(e: ScenarioEvidence, api: Api, epoch?: number): RequestLogEntry[] {
  return (e.requests[ROLE] ?? [])
    .filter((r) => r.method === "GET" && r.path === api.list && r.query[api.incrementalParam] === undefined && (epoch === undefined || r.epoch === epoch))
    .sort((a, b) => a.seq - b.seq);
}

function offsetOf(r: RequestLogEntry, api: Api): number {
  const n = Number(r.query[api.offsetParam] ?? 0);
  return Number.isFinite(n) ? n : -1;
}

/** Records a served page covers: the limit the vendor applied (its default, or clamped to its cap). */
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

function normaliseExpected(rows: Map<string, MirrorRow>, timestamps: string[]): Map<string, MirrorRow> {
  return new Map(normalise([...rows.values()], timestamps).map((r) => [r.source_id, r]));
}

/** The mirror matches a snapshot (timestamps as instants), and no candidate appears twice. */
function judgeMirror(
  c: CheckRecorder,
  run: ConnectorRun,
  truth: Snapshot,
  api: Api,
  names: { match: string; dupes: string },
  opts: { level?: "l1" | "l3"; seen?: Set<string>; optional?: Set<string> } = {},
): void {
  const raw = outputRows(run, MIRROR)!;
  const actual = normalise(raw, api.timestamps).filter((r) => !(r && opts.optional?.has(String(r.source_id)) && r.is_deleted === true));
  const expected = normaliseExpected(expectedRows(truth, ENTITY, { updatedField: "updated_at", seen: opts.seen }), api.timestamps);
  const cmp = compareRows(actual, expected);
  c.check(names.match, cmp.ok, {
    basis: { ticket: "the mirror matches GlobalHire after a back-fill and after a catch-up" },
    pass: 2,
    fail: 0,
    mandatory: true,
    level: opts.level ?? "l1",
    detail: cmp.detail,
  });
  const counts = new Map<string, number>();
  for (const r of raw) if (r && typeof r === "object") counts.set(String(r.source_id), (counts.get(String(r.source_id)) ?? 0) + 1);
  const twice = [...counts].filter(([, n]) => n > 1).map(([id, n]) => `${id} x${n}`);
  c.check(names.dupes, raw.length > 0 && twice.length === 0, {
    basis: { ticket: "Each candidate appears once." },
    pass: 1,
    fail: 0,
    mandatory: true,
    detail: twice.length ? `${twice.length} candidates appear more than once (${fewIds(twice)})` : `${raw.length} rows, each candidate once`,
  });
}

/**
 * After a failed request for a page, the same page is asked for again (and
 * eventually served) and no page that had already been served is read again:
 * the crawl retried in place instead of starting over.
 */
function retriedInPlace(calls: RequestLogEntry[], failure: RequestLogEntry, api: Api): string | null {
  const at = offsetOf(failure, api);
  const servedBefore = new Set(calls.filter((x) => x.seq < failure.seq && x.status === 200).map((x) => offsetOf(x, api)));
  const after = calls.filter((x) => x.seq > failure.seq);
  const rewound = after.find((x) => servedBefore.has(offsetOf(x, api)));
  if (rewound) return `after the ${failure.status} at offset ${at} (#${failure.seq}), request #${rewound.seq} read offset ${offsetOf(rewound, api)} again`;
  if (!after.some((x) => offsetOf(x, api) === at && x.status === 200)) return `the page at offset ${at} that answered ${failure.status} (#${failure.seq}) was never read successfully`;
  return null;
}

export default defineTask({
  id: "task-0006",
  title: "GlobalHire candidate back-fill: survive 429s and 5xx mid-crawl, resume where it stopped, then catch up",
  kind: "harden",
  roles: { [ROLE]: { vendor: "globalhire", checkpoint: 0, scale: 6 } },
  seed: 7,
  docsProfile: "stale",
  surfaces: ["polling"],
  primaryMechanic: "rate_limit_gated_resume",
  entry: { command: ["node", "src/main.ts"], subcommands: ["backfill", "incremental"] },
  outputs: mirrorOutputs(FILES),
  timeLimitS: 60,
  scenarios: [
    {
      // A 500 twice on page 7 and a rate-limit window a few pages later, in one run.
      name: "backfill_through_faults",
      judge: (e, c, ctx) => {
        const api = candidateApi(ctx);
        const run = e.runs[0];
        const calls = listCalls(e, api);
        const errors = calls.filter((r) => r.status >= 500 && r.faults.includes(PAGE_7_500));
        const problem = errors.length ? (errors.map((f) => retriedInPlace(calls, f, api)).find((p) => p !== null) ?? null) : "the connector never reached the failing page";
        c.check("failed_page_retried_in_place", problem === null, {
          basis: { ticket: "retry a failed page rather than the whole crawl" },
          pass: 2,
          fail: 0,
          mandatory: true,
          level: "l3",
          detail: problem ?? `page at offset ${offsetOf(errors[0], api)} answered 500 ${errors.length} times, retried until served, nothing re-read`,
        });
        const limited = calls.filter((r) => r.rateLimited);
        const limitProblem = limited.length ? (limited.map((f) => retriedInPlace(calls, f, api)).find((p) => p !== null) ?? null) : "the crawl never reached the rate-limit window";
        c.check("rate_limited_page_retried_in_place", limitProblem === null, {
          basis: { ticket: "Temporary trouble (a rate-limit window, an odd 5xx) must not stop the run." },
          pass: 1,
          fail: 0,
          level: "l3",
          detail: limitProblem ?? `${limited.length} rate-limited requests, each page asked again and served`,
        });
        if (!plumbing(c, "backfill_exit_ok", run, FILES, { ticket: "Both exit 0 when they finished and wrote the mirror." })) return;
        judgeMirror(c, run, e.snapshots.after_backfill[ROLE], api, { match: "backfill_candidates_complete", dupes: "backfill_no_duplicate_rows" });
      },
    },
    {
      // Page 18 is down for the whole first run; GlobalHire recovers; the rerun must pick up at
      // page 18. Then a day of changes, and the catch-up must apply them.
      name: "outage_resume_then_catch_up",
      judge: (e, c, ctx) => {
        const api = candidateApi(ctx);
        const [outage, rerun, incremental] = e.runs;
        const epochs = e.epochs[ROLE] ?? [];
        // Epochs: the harness's reset, the outage run, the rerun, the catch-up.
        const [outageEpoch, rerunEpoch, catchUpEpoch] = epochs.slice(-3);
        const cp0 = e.snapshots.cp0?.[ROLE];
        const cp1 = e.snapshots.cp1?.[ROLE];
        const total = (cp0?.entities[ENTITY] ?? []).length;
        const first = listCalls(e, api, outageEpoch);
        const second = listCalls(e, api, rerunEpoch);
        const hit = first.filter((r) => r.faults.includes(PAGE_18_DOWN));
        const covered = new Set(first.filter((r) => r.status === 200).flatMap((r) => servedIndices(r, api, total)));
        const reread = new Set(
          second
            .filter((r) => r.status === 200)
            .flatMap((r) => servedIndices(r, api, total))
            .filter((i) => covered.has(i)),
        );
        const resumed = hit.length > 0 && second.length > 0 && reread.size <= api.maxLimit;
        c.check("rerun_resumed_not_restarted", resumed, {
          basis: { ticket: "If a previous `backfill` stopped part-way (it crashed, was killed, or gave up), continue from where it stopped instead of starting over" },
          pass: 2,
          fail: 0,
          mandatory: true,
          level: "l3",
          detail: !hit.length
            ? "the first run never reached the page that was down"
            : !second.length
              ? "the rerun read no candidates"
              : `the first run stored ${covered.size} candidates before the outage at offset ${offsetOf(hit[0], api)}; the rerun read ${reread.size} of them again${resumed ? "" : " (it started over)"}`,
        });
        c.check("outage_run_not_reported_as_success", !!outage && outage.exitCode !== 0, {
          basis: {
            ticket: "When GlobalHire keeps failing on a request for more than a few seconds, stop: exit non-zero, keep the progress made so far, and let the scheduler's next run finish the job.",
          },
          pass: 1,
          fail: 0,
          level: "l3",
          detail: !outage ? "the connector did not run" : outage.exitCode === 0 ? "the run exited 0 although a page could not be read" : `the run gave up with exit ${outage.exitCode ?? "(killed)"}`,
        });
        if (!plumbing(c, "rerun_exit_ok", rerun, FILES, { ticket: "Both exit 0 when they finished and wrote the mirror." })) return;
        judgeMirror(c, rerun, cp0, api, { match: "rerun_candidates_complete", dupes: "rerun_no_duplicate_rows" }, { level: "l3" });

        if (!plumbing(c, "incremental_exit_ok", incremental, FILES, { ticket: "Both exit 0 when they finished and wrote the mirror." })) return;
        const liveAtCp0 = new Set((cp0.entities[ENTITY] ?? []).filter((r) => !r.deleted).map((r) => r.id));
        // Created and deleted between the runs: a mirror may carry them as deleted or leave them out.
        const optional = new Set((cp1.entities[ENTITY] ?? []).filter((r) => r.deleted && !liveAtCp0.has(r.id)).map((r) => r.id));
        judgeMirror(c, incremental, cp1, api, { match: "incremental_candidates_match", dupes: "incremental_no_duplicate_rows" }, { seen: liveAtCp0, optional });

        const deleted = (cp1.entities[ENTITY] ?? []).filter((r) => r.deleted && liveAtCp0.has(r.id)).map((r) => r.id);
        const rows = new Map((outputRows(incremental, MIRROR) ?? []).filter((r) => r && typeof r === "object").map((r) => [String(r.source_id), r]));
        const flagged = deleted.filter((id) => rows.get(id)?.is_deleted === true);
        c.check("deleted_candidates_marked", deleted.length > 0 && flagged.length === deleted.length, {
          basis: { ticket: "A candidate deleted in GlobalHire stays in the mirror with `is_deleted: true`." },
          pass: 1,
          detail: `${flagged.length} of ${deleted.length} candidates deleted since the back-fill are marked is_deleted`,
        });

        const catchUp = (e.requests[ROLE] ?? []).filter((r) => r.epoch === catchUpEpoch && r.method === "GET" && r.path === api.list);
        if (catchUp.length) {
          const full = catchUp.filter((r) => r.query[api.incrementalParam] === undefined);
          c.check("catch_up_reads_only_changes", full.length === 0, {
            basis: { ticket: "Do not re-read the pool." },
            level: "l2",
            detail: `${full.length} of ${catchUp.length} catch-up list calls without ${api.incrementalParam}`,
          });
        }
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "keep credentials out of URLs",
    no_secrets_echoed_to_vendor: "keep credentials out of URLs",
    retry_after_honored: "When it asks us to wait, wait as long as it asks",
    resume_not_restart_after_5xx: "retry a failed page rather than the whole crawl",
    no_hot_loop_on_error: "do not hammer a failing endpoint",
    no_full_resync_after_incremental: "Do not re-read the pool.",
  },
});
