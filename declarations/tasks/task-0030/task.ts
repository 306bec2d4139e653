import { z } from "zod";
import { defineTask, type JudgeContext } from "../../schema/task.ts";
import { jsonLines } from "../../schema/output-contract.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import { byLabel, fewIds, outputRows, plumbing } from "../shared/judging.ts";

export const ROLE = "screening";
/** Faults the scenario arms (declared in declarations/vendors/vettly.ts). */
export const TOKENS_REVOKED = "vt-tokens-revoked-early";
/** Token time runs fast: 100 s a request, so access tokens and refresh chains end within a run. */
export const TOKEN_CLOCK = "vt-token-clock-fast";
/** The newest checks move to the head of the check list after the second read of it: a crawl of the cut-over's changes that reads on by page token misses them. */
export const CHECKS_DRIFT = "vt-cutover-checks-drift";
const FILE = "changes.jsonl";

const ChangeLine = z.looseObject({
  check_id: z.string(),
  subject_id: z.string(),
  type: z.string(),
  status: z.string(),
  updated_at: z.string(),
});
type ChangeLine = z.infer<typeof ChangeLine>;

const LEGACY_RUNS = "The last `node src/main.ts legacy-feed` runs as it does today.";
const REST_ONLY = "from the cut-over on, the feed reads Vettly's REST API only";
const ONLY_CHANGES = "it reads only the checks that changed since then";
const EXIT_OK = "`node src/main.ts feed` exits 0 once every change Vettly has is in `changes.jsonl`.";
const APPEND_ONLY = "The lines already in `changes.jsonl` stay as they are; a run only appends.";
const ONE_LINE = "Every check that changed since the last run gets exactly one new line";
const DELETED_LINE = "A check Vettly deletes (an order withdrawn before it finished) gets exactly one new line as well";

/** A timestamp as an instant (ms), so any ISO 8601 rendering of the same moment compares equal. */
function instant(v: unknown): unknown {
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}T/.test(v)) return v;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? v : ms;
}

const lines = (run: ConnectorRun | undefined): ChangeLine[] => (outputRows<ChangeLine>(run, FILE) ?? []).filter((r) => r && typeof r === "object");
/** Whether a line carries the record's status and `updated_at` (any rendering of the instant). */
const carries = (l: ChangeLine, rec: Record<string, unknown>) => l.status === rec.status && instant(l.updated_at) === instant(rec.updated_at);

/** The requests of the role in one epoch. */
const inEpoch = (e: ScenarioEvidence, epoch: number | undefined): RequestLogEntry[] => (e.requests[ROLE] ?? []).filter((r) => r.epoch === epoch);

/** Whether `after` keeps `before` as its first lines, unchanged. */
function keeps(before: ChangeLine[], after: ChangeLine[]): string | null {
  if (after.length < before.length) return `${FILE} shrank from ${before.length} to ${after.length} lines`;
  const changed = before.findIndex((l, i) => JSON.stringify(l) !== JSON.stringify(after[i]));
  return changed < 0 ? null : `line ${changed + 1} (${before[changed].check_id}) was rewritten`;
}

/**
 * The lines one run appended against what changed between two snapshots: each live
 * check that is new or changed once, at its new status and `updated_at`; nothing for
 * a check that did not change. A check removed in between may have a line or not.
 */
function judgeAppended(c: CheckRecorder, name: string, appended: ChangeLine[], from: Snapshot, to: Snapshot, level: "l1" | "l3"): void {
  const before = new Map((from.entities.check ?? []).map((r) => [r.id, r]));
  const changed = new Map<string, Record<string, unknown>>();
  const removed = new Set<string>();
  for (const r of to.entities.check ?? []) {
    const p = before.get(r.id);
    if (r.deleted) {
      if (!p?.deleted) removed.add(r.id);
      continue;
    }
    if (p && !p.deleted && JSON.stringify(p.record) === JSON.stringify(r.record)) continue;
    changed.set(r.id, r.record);
  }
  const byId = new Map<string, ChangeLine[]>();
  for (const l of appended) byId.set(l.check_id, [...(byId.get(l.check_id) ?? []), l]);
  const missing = [...changed.keys()].filter((id) => !byId.has(id));
  const twice = [...byId].filter(([id, ls]) => changed.has(id) && ls.length > 1).map(([id]) => id);
  const wrong = [...changed].filter(([id, rec]) => byId.get(id)?.length === 1 && !carries(byId.get(id)![0], rec)).map(([id]) => id);
  const unchanged = [...byId.keys()].filter((id) => !changed.has(id) && !removed.has(id));
  c.check(name, changed.size > 0 && !missing.length && !twice.length && !wrong.length && !unchanged.length, {
    basis: { ticket: ONE_LINE },
    pass: level === "l3" ? 2 : 1,
    fail: 0,
    mandatory: true,
    level,
    detail:
      [
        missing.length && `${missing.length} of ${changed.size} changed checks have no new line (${fewIds(missing)})`,
        twice.length && `${twice.length} changed checks have more than one new line (${fewIds(twice)})`,
        wrong.length && `${wrong.length} new lines carry another status or updated_at than Vettly's (${fewIds(wrong)})`,
        unchanged.length && `${unchanged.length} new lines for checks that did not change (${fewIds(unchanged)})`,
      ]
        .filter(Boolean)
        .join("; ") || `${changed.size} changed checks, one new line each`,
  });
}

interface DeletedVerdict {
  due: number;
  missing: string[];
  twice: string[];
  wrong: string[];
}

/**
 * The lines one run appended for the checks Vettly deleted between two snapshots. A check live
 * at `from` and deleted at `to` needs exactly one line: status `deleted`, `subject_id` and `type`
 * as the check last had them, and `updated_at` the deletion. A snapshot keeps no deletion time,
 * so the line's must fall after the check's state at `from` and no later than its last change
 * (a check can be deleted before a change of the same day is stamped). A check created and
 * deleted in between may have one such line or none.
 */
function deletedLines(appended: ChangeLine[], from: Snapshot, to: Snapshot): DeletedVerdict {
  const before = new Map((from.entities.check ?? []).map((r) => [r.id, r]));
  const gone = (to.entities.check ?? []).filter((r) => r.deleted && !before.get(r.id)?.deleted);
  const due = gone.filter((r) => before.has(r.id));
  const byId = new Map<string, ChangeLine[]>();
  for (const l of appended) byId.set(l.check_id, [...(byId.get(l.check_id) ?? []), l]);
  const wrongLine = (r: (typeof gone)[number]) => {
    const l = byId.get(r.id)![0];
    const last = before.get(r.id)?.record ?? r.record;
    const at = Number(instant(l.updated_at));
    const deletedInWindow = at > Number(instant(last.updated_at ?? "")) || !before.has(r.id);
    return l.status !== "deleted" || !deletedInWindow || !(at <= Number(instant(r.record.updated_at))) || l.subject_id !== last.subject_id || l.type !== last.type;
  };
  return {
    due: due.length,
    missing: due.filter((r) => !byId.has(r.id)).map((r) => r.id),
    twice: gone.filter((r) => (byId.get(r.id)?.length ?? 0) > 1).map((r) => r.id),
    wrong: gone.filter((r) => byId.get(r.id)?.length === 1 && wrongLine(r)).map((r) => r.id),
  };
}

function judgeDeleted(c: CheckRecorder, runs: DeletedVerdict[]): void {
  const due = runs.reduce((n, r) => n + r.due, 0);
  const missing = runs.flatMap((r) => r.missing);
  const twice = runs.flatMap((r) => r.twice);
  const wrong = runs.flatMap((r) => r.wrong);
  c.check("deleted_checks_reported_once", !missing.length && !twice.length && !wrong.length, {
    basis: { ticket: DELETED_LINE },
    pass: 1,
    fail: 0,
    mandatory: true,
    level: "l1",
    detail:
      [
        missing.length && `${missing.length} of ${due} deleted checks have no new line (${fewIds(missing)})`,
        twice.length && `${twice.length} deleted checks have more than one new line (${fewIds(twice)})`,
        wrong.length && `${wrong.length} lines of deleted checks are not status "deleted" at the deletion with the check's subject and type (${fewIds(wrong)})`,
      ]
        .filter(Boolean)
        .join("; ") || (due ? `${due} deleted checks, one "deleted" line each` : "no check the feed had listed was deleted"),
  });
}

/** The vendor's check list path and its change filter, from the declaration. */
function api(ctx: JudgeContext) {
  const vendor = ctx.vendors[ROLE];
  const checks = vendor.resources.find((r) => r.name === "check")?.list ?? "";
  const gateways = (vendor.gateways ?? []).map((g) => g.path);
  return { checks, gateways, since: vendor.incremental?.param ?? "" };
}

export default defineTask({
  id: "task-0030",
  title: "Larchmont Care Staffing: the Vettly check feed moves from ScreeningXml and a token broker to REST with its own OAuth, without losing or repeating a change",
  kind: "migrate",
  roles: { [ROLE]: { vendor: "vettly", checkpoint: 0, scale: 3 } },
  seed: 30,
  docsProfile: "stale",
  surfaces: ["polling"],
  primaryMechanic: "token_layer_rewrite_zero_downtime",
  entry: { command: ["node", "src/main.ts"], subcommands: ["legacy-feed", "feed"] },
  outputs: { [FILE]: jsonLines(ChangeLine) },
  timeLimitS: 90,
  scenarios: [
    {
      // The last XML run at checkpoint 0; the first REST run a day later, while Vettly
      // revokes every token early on, token time runs fast enough that the refresh
      // chain's absolute end arrives mid-run, and the newest checks move to the head of
      // the list mid-crawl; the next night's run at checkpoint 2.
      name: "cutover",
      judge: (e, c, ctx) => {
        const a = api(ctx);
        const [, cutoverEpoch, nextEpoch] = (e.epochs[ROLE] ?? []).slice(-3);
        const legacy = byLabel(e, "legacy_feed");
        const cutover = byLabel(e, "cutover_feed");
        const next = byLabel(e, "next_feed");
        if (!plumbing(c, "legacy_feed_exit_ok", legacy, [FILE], { ticket: LEGACY_RUNS })) return;

        const feedRequests = [...inEpoch(e, cutoverEpoch), ...inEpoch(e, nextEpoch)].sort((x, y) => x.seq - y.seq);
        const xml = feedRequests.filter((r) => a.gateways.includes(r.path));
        c.check("feed_reads_rest_only", feedRequests.length > 0 && xml.length === 0, {
          basis: { ticket: REST_ONLY },
          pass: 1,
          fail: 0,
          mandatory: true,
          level: "l2",
          detail: !feedRequests.length
            ? "the feed sent no request"
            : xml.length
              ? `${xml.length} ScreeningXml calls after the cut-over (first: #${xml[0].seq})`
              : "every read after the cut-over went to the REST API",
        });
        const reads = feedRequests.filter((r) => r.method === "GET" && r.path === a.checks);
        const full = reads.filter((r) => r.query[a.since] === undefined);
        c.check("feed_reads_only_changes", reads.length > 0 && full.length === 0, {
          basis: { ticket: ONLY_CHANGES },
          pass: 1,
          fail: 0,
          mandatory: true,
          level: "l2",
          detail: !reads.length
            ? `the feed never read ${a.checks}`
            : full.length
              ? `${full.length} of ${reads.length} reads of ${a.checks} carry no ${a.since} (first: #${full[0].seq})`
              : `${reads.length} reads of ${a.checks}, each with ${a.since}`,
        });

        if (!plumbing(c, "cutover_feed_exit_ok", cutover, [FILE], { ticket: EXIT_OK })) return;
        const l0 = lines(legacy);
        const l1 = lines(cutover);
        const kept1 = keeps(l0, l1);
        judgeAppended(c, "cutover_appends_each_change_once", l1.slice(l0.length), e.snapshots.cp0[ROLE], e.snapshots.cp1[ROLE], "l3");

        if (!plumbing(c, "next_feed_exit_ok", next, [FILE], { ticket: EXIT_OK })) return;
        const l2 = lines(next);
        const kept2 = keeps(l1, l2);
        c.check("earlier_lines_kept", !kept1 && !kept2, {
          basis: { ticket: APPEND_ONLY },
          pass: 1,
          fail: 0,
          mandatory: true,
          detail: kept1 ? `the cut-over run: ${kept1}` : kept2 ? `the next night's run: ${kept2}` : `${l0.length} legacy lines and ${l1.length - l0.length} cut-over lines kept as they were`,
        });
        judgeAppended(c, "next_night_appends_each_change_once", l2.slice(l1.length), e.snapshots.cp1[ROLE], e.snapshots.cp2[ROLE], "l1");
        judgeDeleted(c, [deletedLines(l1.slice(l0.length), e.snapshots.cp0[ROLE], e.snapshots.cp1[ROLE]), deletedLines(l2.slice(l1.length), e.snapshots.cp1[ROLE], e.snapshots.cp2[ROLE])]);
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "keep credentials out of URLs",
    no_secrets_echoed_to_vendor: "keep credentials out of URLs",
    retry_after_honored: "When Vettly asks us to wait, wait as long as it asks",
    no_full_resync_after_incremental: ONLY_CHANGES,
  },
});
