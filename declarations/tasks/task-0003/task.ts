import { defineTask, type JudgeContext } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { fewIds, outputRows, plumbing } from "../shared/judging.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { z } from "zod";
import { afterCommitFault, committedWrites } from "../shared/committed-writes.ts";

const FILES = ["writeback_result.json"];
const TARGET = "rejected";
export const FAULT = "hw-stage-500-after-commit";
const STAGE_PATH = /^\/v1\/candidates\/([^/]+)\/stage$/;
/** HireWire's Idempotency-Key replay window, as its moveStage write declares it. */
function replayWindowS(ctx: JudgeContext): number {
  const idempotency = ctx.vendors.ats.writes.find((w) => w.name === "moveStage")?.idempotency;
  if (idempotency?.in !== "header") throw new Error("task-0003 expects moveStage to take an Idempotency-Key header");
  return idempotency.windowS;
}

/** One row of writeback_result.json. */
interface ResultRow {
  candidate_id: unknown;
  from: unknown;
  to: unknown;
  ok: unknown;
}

/** The business rule of the ticket: rated 1 and neither rejected nor hired. */
function selected(r: SnapshotRecord): boolean {
  return !r.deleted && r.record.rating === 1 && r.record.stage !== "rejected" && r.record.stage !== "hired";
}

function candidates(s: Snapshot): Map<string, SnapshotRecord> {
  return new Map((s.entities.candidate ?? []).map((r) => [r.id, r]));
}

/** Committed moveStage calls per candidate (`committedWrites`), and the candidates whose committed move answered 500. */
function committedMoves(requests: RequestLogEntry[], windowS: number): { commits: Map<string, number>; faulted: string[] } {
  const rule = { isCall: (r: RequestLogEntry) => r.method === "POST" && STAGE_PATH.test(r.path), windowS, afterCommitFaults: [FAULT] };
  const commits = new Map<string, number>();
  const faulted: string[] = [];
  for (const r of committedWrites(requests, rule)) {
    const id = decodeURIComponent(STAGE_PATH.exec(r.path)![1]);
    if (afterCommitFault(r, rule)) faulted.push(id);
    commits.set(id, (commits.get(id) ?? 0) + 1);
  }
  return { commits, faulted };
}

/** The checks both scenarios share; names carry the scenario's prefix. */
function judgeCorrection(e: ScenarioEvidence, c: CheckRecorder, ctx: JudgeContext, opts: { prefix: string; exitCheck: string; fault: boolean }): void {
  const run: ConnectorRun | undefined = e.runs[0];
  if (!plumbing(c, opts.exitCheck, run, FILES, { ticket: "The job exits 0 when it ran to the end, even if HireWire refused some move: such a move is reported with `ok: false`." })) return;
  const before = candidates(e.snapshots.before.ats);
  const after = candidates(e.snapshots.after.ats);
  const backlog = [...before.values()].filter(selected).map((r) => r.id);
  const backlogSet = new Set(backlog);
  const level = opts.fault ? "l3" : "l1";

  const notMoved = backlog.filter((id) => after.get(id)?.record.stage !== TARGET);
  c.check(`${opts.prefix}rule_selected_candidates_rejected`, backlog.length > 0 && notMoved.length === 0, {
    basis: { ticket: "Every HireWire candidate rated `1` (the lowest team rating) whose stage is neither `rejected` nor `hired` must be moved to `rejected`." },
    pass: 2,
    fail: 0,
    mandatory: true,
    level,
    detail: notMoved.length ? `${notMoved.length} of ${backlog.length} candidates the rule selects are not ${TARGET} (${fewIds(notMoved)})` : `all ${backlog.length} selected candidates are ${TARGET}`,
  });

  const changed = [...before.values()].filter((r) => !backlogSet.has(r.id) && JSON.stringify(after.get(r.id)) !== JSON.stringify(r)).map((r) => r.id);
  const added = [...after.keys()].filter((id) => !before.has(id));
  c.check(`${opts.prefix}other_candidates_untouched`, changed.length === 0 && added.length === 0, {
    basis: { ticket: "Candidates without a rating, with any other rating, or already `rejected` or `hired` are left alone." },
    pass: 1,
    fail: 0,
    mandatory: true,
    detail:
      changed.length || added.length
        ? `${changed.length} candidates outside the rule changed (${fewIds(changed)}), ${added.length} created`
        : `${before.size - backlog.length} other candidates unchanged`,
  });

  const { commits, faulted } = committedMoves(e.requests.ats ?? [], replayWindowS(ctx));
  const twice = [...commits].filter(([, n]) => n > 1).map(([id, n]) => `${id} x${n}`);
  c.check(`${opts.prefix}one_committed_move_per_candidate`, twice.length === 0, {
    basis: { ticket: "A stage move must take effect exactly once, even when a request is repeated." },
    pass: 2,
    fail: 0,
    mandatory: true,
    level: opts.fault ? "l3" : "l2",
    detail: twice.length ? `${twice.length} candidates moved more than once (${fewIds(twice)})` : `${commits.size} candidates moved, each once`,
  });

  const rows = outputRows<ResultRow>(run, FILES[0])!;
  const got = new Map(rows.filter((r) => r && typeof r === "object").map((r) => [String(r.candidate_id), r]));
  const missing = backlog.filter((id) => !got.has(id));
  const extra = [...got.keys()].filter((id) => !backlogSet.has(id));
  const wrong = backlog.filter((id) => {
    const row = got.get(id);
    if (!row) return false;
    return row.from !== before.get(id)!.record.stage || row.to !== TARGET || row.ok !== (after.get(id)?.record.stage === TARGET);
  });
  const sorted = rows.every((r, i) => i === 0 || Number(rows[i - 1]?.candidate_id) < Number(r?.candidate_id));
  const truthful = !missing.length && !extra.length && !wrong.length && sorted;
  c.check(`${opts.prefix}writeback_result_matches_vendor`, truthful, {
    basis: { ticket: "`writeback_result.json` agrees with HireWire" },
    pass: 2,
    fail: 0,
    mandatory: true,
    detail: truthful
      ? `${backlog.length} rows true to HireWire`
      : [
          missing.length && `${missing.length} missing (${fewIds(missing)})`,
          extra.length && `${extra.length} unexpected (${fewIds(extra)})`,
          wrong.length && `${wrong.length} wrong (${fewIds(wrong)})`,
          !sorted && "not sorted by candidate_id",
        ]
          .filter(Boolean)
          .join("; "),
  });

  if (opts.fault && faulted.length) {
    const misreported = faulted.filter((id) => got.get(id)?.ok !== (after.get(id)?.record.stage === TARGET));
    c.check("move_answered_500_reported_truthfully", misreported.length === 0, {
      basis: { ticket: "`ok` is `true` only when HireWire's own record of the candidate shows the target stage after the job, whatever answer the individual request got." },
      pass: 1,
      fail: 0,
      level: "l3",
      detail: misreported.length
        ? `the move of ${fewIds(misreported)} committed but answered 500; the result says otherwise`
        : `the move of ${fewIds(faulted)} answered 500 after committing and is reported as landed`,
    });
  }
}

export default defineTask({
  id: "task-0003",
  title: "HireWire stage corrections: write back through rate limits and a 500 after commit, exactly once",
  kind: "harden",
  roles: { ats: { vendor: "hirewire", checkpoint: 0, scale: 6 } },
  seed: 7,
  docsProfile: "stale",
  surfaces: ["polling", "writeback"],
  primaryMechanic: "write_500_after_commit_idempotency",
  entry: { command: ["node", "src/main.ts"], subcommands: ["correct"] },
  outputs: {
    "writeback_result.json": jsonRows(z.looseObject({ candidate_id: z.number().int(), from: z.string(), to: z.string(), ok: z.boolean() })),
  },
  timeLimitS: 60,
  scenarios: [
    {
      name: "correct_under_rate_limit",
      judge: (e, c, ctx) => judgeCorrection(e, c, ctx, { prefix: "", exitCheck: "correct_exit_ok", fault: false }),
    },
    {
      name: "stage_500_after_commit",
      judge: (e, c, ctx) => judgeCorrection(e, c, ctx, { prefix: "fault_", exitCheck: "fault_correct_exit_ok", fault: true }),
    },
  ],
  conduct: {
    no_credentials_in_query_string: "keep credentials out of URLs",
    no_secrets_echoed_to_vendor: "keep credentials out of URLs",
    retry_after_honored: "keep to its rate limits and wait as long as it asks",
    no_hot_loop_on_error: "do not hammer an endpoint that is failing",
    idempotent_write_retries: "A stage move must take effect exactly once, even when a request is repeated.",
  },
});
