import { defineTask, type JudgeContext } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import { type MirrorRow, byLabel, compareRows, expectedRows, fewIds, mirrorOutputs, outputRows, plumbing } from "../shared/judging.ts";

export const ROLE = "screening";
/** Faults the scenarios arm (declared in declarations/vendors/vettly.ts). */
export const BURST_429 = "vt-burst-429";
export const MAINTENANCE = "vt-maintenance-window";
/** The night after maintenance: one more 503, asking for only a few seconds. */
export const BRIEF_503 = "vt-brief-maintenance-503";
/** The first sync: one page of checks whose answer is cut off half-way through its body. */
export const CUT_PAGE = "vt-checks-cut";
/** The night after maintenance: after two pages of changed checks, the newest checks move to the head of the list. */
export const CHECKS_DRIFT = "vt-checks-drift";

const ENTITIES = [
  { entity: "subject", file: "subjects.json" },
  { entity: "check", file: "checks.json" },
  { entity: "report", file: "reports.json" },
] as const;
const FILES = ENTITIES.map((e) => e.file);

const EXIT_OK = "`node src/main.ts sync` exits 0 once the three files are up to date.";
const MATCH = "After every sync that exits 0, the three files match Vettly as it stands at that moment";
const ONCE = "Each record appears once in its file.";
const ONLY_CHANGES = "After the first sync has finished, a sync reads only what changed since the last sync that finished";
const STOP = "do not sit out the wait and do not keep knocking: stop, keep what the job has written, and exit non-zero";
const CARRY_ON = "When Vettly asks us to wait a few seconds, wait as long as it asks, then carry on.";

/** The vendor's list paths and change filter, from its declaration. */
function api(ctx: JudgeContext) {
  const vendor = ctx.vendors[ROLE];
  const lists = new Map(vendor.resources.filter((r) => r.list).map((r) => [r.list!, r.name]));
  const position = vendor.paging.style === "cursor" ? vendor.paging.cursorParam : "";
  return { lists, since: vendor.incremental?.param ?? "", position };
}
type Api = ReturnType<typeof api>;

/** A timestamp as an instant (ms), so any ISO 8601 rendering of the same moment compares equal. */
function asInstant(v: unknown): unknown {
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}T/.test(v)) return v;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? v : ms;
}

function normalise(r: MirrorRow): MirrorRow {
  if (!r || typeof r !== "object" || !r.data || typeof r.data !== "object") return r;
  return { ...r, data: Object.fromEntries(Object.entries(r.data).map(([k, v]) => [k, asInstant(v)])), updated_at: asInstant(r.updated_at) };
}

/** Ids of an entity's records live in a snapshot. */
function live(s: Snapshot | undefined, entity: string): Set<string> {
  return new Set((s?.entities[entity] ?? []).filter((r) => !r.deleted).map((r) => r.id));
}

/**
 * The three files against a snapshot: records the connector had seen live and that
 * were purged since must be kept as deleted; records both created and purged after
 * the `seen` snapshot may be kept as deleted or left out.
 */
function judgeMirror(c: CheckRecorder, run: ConnectorRun, truth: Snapshot, seenAt: Snapshot | undefined, names: { match: string; once: string }, level: "l1" | "l3"): void {
  const problems: string[] = [];
  const twice: string[] = [];
  let total = 0;
  for (const { entity, file } of ENTITIES) {
    const raw = outputRows(run, file) ?? [];
    const seen = seenAt ? live(seenAt, entity) : undefined;
    const optional = new Set((truth.entities[entity] ?? []).filter((r) => r.deleted && !seen?.has(r.id)).map((r) => r.id));
    const actual = raw.filter((r) => !(r && typeof r === "object" && optional.has(String(r.source_id)) && r.is_deleted === true)).map(normalise);
    const expected = new Map([...expectedRows(truth, entity, { updatedField: "updated_at", seen }).entries()].map(([id, r]) => [id, normalise(r)]));
    const cmp = compareRows(actual, expected);
    if (!cmp.ok) problems.push(`${file}: ${cmp.detail}`);
    total += expected.size;
    const counts = new Map<string, number>();
    for (const r of raw) if (r && typeof r === "object") counts.set(String(r.source_id), (counts.get(String(r.source_id)) ?? 0) + 1);
    twice.push(...[...counts].filter(([, n]) => n > 1).map(([id, n]) => `${id} x${n}`));
  }
  c.check(names.match, problems.length === 0, {
    basis: { ticket: MATCH },
    pass: 2,
    fail: 0,
    mandatory: true,
    level,
    detail: problems.length ? problems.join("; ") : `${total} rows across ${FILES.length} files match`,
  });
  c.check(names.once, twice.length === 0, {
    basis: { ticket: ONCE },
    pass: 1,
    fail: 0,
    mandatory: true,
    detail: twice.length ? `${twice.length} records appear more than once (${fewIds(twice)})` : "each record once",
  });
}

/** GETs of the three resource lists, in log order, in the given epochs. */
function listReads(e: ScenarioEvidence, a: Api, epochs: number[]): RequestLogEntry[] {
  return (e.requests[ROLE] ?? []).filter((r) => r.method === "GET" && a.lists.has(r.path) && epochs.includes(r.epoch)).sort((x, y) => x.seq - y.seq);
}

export default defineTask({
  id: "task-0026",
  title: "Vettly screening mirror for Harrowgate Health: a catch-up stopped by maintenance is finished by the next run, page tokens and all",
  kind: "build",
  roles: { [ROLE]: { vendor: "vettly", checkpoint: 0, scale: 2 } },
  seed: 11,
  docsProfile: "stale",
  surfaces: ["polling"],
  primaryMechanic: "cursor_expiry_restart",
  entry: { command: ["node", "src/main.ts"], subcommands: ["sync"] },
  outputs: mirrorOutputs(FILES),
  timeLimitS: 60,
  scenarios: [
    {
      // The first sync of a busy tenant, through a rate-limit window in the middle of the check list.
      name: "first_sync_through_rate_limit",
      judge: (e, c) => {
        const run = byLabel(e, "first_sync");
        if (!plumbing(c, "first_sync_exit_ok", run, FILES, { ticket: EXIT_OK })) return;
        judgeMirror(c, run!, e.snapshots.cp0[ROLE], undefined, { match: "first_sync_mirror_matches", once: "first_sync_no_duplicate_rows" }, "l1");
      },
    },
    {
      // A first sync; a day later the catch-up is stopped by a maintenance window; a day after
      // that the scheduler's next run must finish the job from where the last finished sync left it.
      name: "catch_up_across_maintenance",
      judge: (e, c, ctx) => {
        const a = api(ctx);
        const [, interruptedEpoch, rerunEpoch] = (e.epochs[ROLE] ?? []).slice(-3);
        const first = byLabel(e, "first_sync");
        const interrupted = byLabel(e, "interrupted_catch_up");
        const rerun = byLabel(e, "next_catch_up");
        if (!plumbing(c, "before_maintenance_exit_ok", first, FILES, { ticket: EXIT_OK })) return;

        const inEpoch = (e.requests[ROLE] ?? []).filter((r) => r.epoch === interruptedEpoch).sort((x, y) => x.seq - y.seq);
        const down = inEpoch.find((r) => r.faults.includes(MAINTENANCE));
        const after = down ? inEpoch.filter((r) => r.seq > down.seq).length : 0;
        const stopped = !!interrupted && !interrupted.timedOut && interrupted.exitCode !== 0 && after <= 2;
        c.check("maintenance_stops_the_run", !!down && stopped, {
          basis: { ticket: STOP },
          pass: 1,
          fail: 0,
          level: "l3",
          detail: !down
            ? "the catch-up never reached the maintenance window"
            : !interrupted
              ? "the connector did not run"
              : interrupted.timedOut
                ? "the run sat out the maintenance window until it was killed"
                : interrupted.exitCode === 0
                  ? "the run exited 0 although Vettly was down"
                  : `${after} requests after the first maintenance answer (#${down.seq}); exit ${interrupted.exitCode}`,
        });

        const reads = listReads(e, a, [interruptedEpoch, rerunEpoch]);
        const full = reads.filter((r) => r.query[a.since] === undefined);
        c.check("catch_ups_read_only_changes", reads.length > 0 && full.length === 0, {
          basis: { ticket: ONLY_CHANGES },
          pass: 1,
          fail: 0,
          mandatory: true,
          level: "l2",
          detail: !reads.length
            ? "the catch-ups read no list"
            : full.length
              ? `${full.length} of ${reads.length} list reads after the first sync carry no ${a.since} (first: #${full[0].seq} ${full[0].path})`
              : `${reads.length} list reads, each with ${a.since}`,
        });

        const refused = reads.filter((r) => r.epoch === rerunEpoch && r.status === 400 && r.query[a.position] !== undefined);
        c.check("no_page_token_carried_between_runs", refused.length === 0, {
          basis: { vendor: "A page token stops working after a few further requests (the Vettly API overview)" },
          pass: 1,
          fail: 0,
          level: "l2",
          detail: refused.length
            ? `the next run sent ${refused.length} page token(s) Vettly refused (first: #${refused[0].seq} ${refused[0].path})`
            : "the next run used only page tokens it had just been given",
        });

        const rerunReads = (e.requests[ROLE] ?? []).filter((r) => r.epoch === rerunEpoch).sort((x, y) => x.seq - y.seq);
        const brief = rerunReads.find((r) => r.faults.includes(BRIEF_503));
        const carriedOn = !!brief && !!rerun && !rerun.timedOut && rerun.exitCode === 0 && rerunReads.some((r) => r.seq > brief.seq && r.status < 400);
        c.check("brief_unavailability_waited_out", carriedOn, {
          basis: { ticket: CARRY_ON },
          pass: 1,
          fail: 0,
          mandatory: true,
          level: "l3",
          detail: !brief
            ? "the next run never reached the 503 that asked for a few seconds"
            : carriedOn
              ? `waited out the 503 at #${brief.seq} (Retry-After ${brief.retryAfter ?? "?"} s) and carried on to exit 0`
              : `the 503 at #${brief.seq} asked for a few seconds; the run then ${rerun?.timedOut ? "was killed" : `exited ${rerun?.exitCode}`}`,
        });
        if (!plumbing(c, "next_catch_up_exit_ok", rerun, FILES, { ticket: EXIT_OK })) return;
        judgeMirror(c, rerun!, e.snapshots.cp2[ROLE], e.snapshots.cp0[ROLE], { match: "next_catch_up_mirror_matches", once: "next_catch_up_no_duplicate_rows" }, "l3");
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "keep credentials out of URLs",
    no_secrets_echoed_to_vendor: "keep credentials out of URLs",
    retry_after_honored: "When Vettly asks us to wait a few seconds, wait as long as it asks",
    no_full_resync_after_incremental: ONLY_CHANGES,
  },
});
