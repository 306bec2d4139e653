import type { Task } from "../../declarations/schema/task.ts";
import type { Vendor } from "../../declarations/schema/vendor.ts";
import { conductChecks } from "./conduct/index.ts";
import { conductBasis, type ConductName } from "../../evidence/conduct.ts";
import { CheckRecorder } from "../../evidence/recorder.ts";
import { byLevel, manifestFrom, scoreChecks } from "./score.ts";
import { type ScenarioOutcome, unrecordedChecks } from "./unrecorded.ts";
import type { GoldManifest, ScenarioEvidence, Verdict } from "../../evidence/verdict.ts";

/** The inputs of a grade: a sealed run's evidence. */
export interface SealedRun {
  runId: string;
  task: string;
  seed: number;
  scenarios: ScenarioEvidence[];
  /** Set when the harness could not run the connector at all. */
  error: Verdict["error"];
  /** Sealed by a participant (its own harness ran the connector). */
  selfReported?: boolean;
}

/**
 * Judges a sealed run: the task's judges, then the built-in conduct checks
 * for every role's traffic, scored against gold's manifest (or, when there is
 * none yet, against the run itself: that is how gold's manifest is made).
 * Each check carries the scenario that recorded it; the verdict also lists
 * every check of gold's the run did not record, failed, as the score counts it.
 */
export function gradeRun(task: Task, vendors: Record<string, Vendor>, run: SealedRun, gold: GoldManifest | null): Verdict {
  const rec = new CheckRecorder();
  let error = run.error;
  const outcomes: ScenarioOutcome[] = [];
  for (const e of run.scenarios) {
    const scenario = task.scenarios.find((s) => s.name === e.name);
    if (!scenario) {
      error ??= { class: "benchmark_verifier_failure", message: `evidence for unknown scenario "${e.name}"` };
      continue;
    }
    const first = rec.checks.length;
    let threw: string | null = null;
    try {
      scenario.judge(e, rec, { seed: run.seed, vendors });
    } catch (err) {
      threw = (err as Error).message;
      error ??= { class: "benchmark_verifier_failure", message: `judge of ${e.name} threw: ${threw}` };
    }
    for (const role of Object.keys(e.requests)) {
      const checks = conductChecks({
        maxSkewS: vendors[role].webhooks?.maxSkewS ?? 300,
        vendor: vendors[role],
        requests: e.requests[role] ?? [],
        tokens: e.tokens[role] ?? [],
        webhooks: e.webhooks[role] ?? [],
        secrets: e.secrets[role] ?? [],
        connectorRuns: e.runs.length,
      });
      // A conduct check rests on the ticket sentence the task names for it, else on its vendor behaviour.
      rec.checks.push(...checks.map((c) => ({ ...c, basis: conductBasis(c.name as ConductName, task.conduct) })));
    }
    for (const c of rec.checks.slice(first)) c.scenario = e.name;
    outcomes.push({ name: e.name, runs: e.runs, checks: rec.checks.slice(first), threw });
  }
  for (const s of task.scenarios) if (!outcomes.some((o) => o.name === s.name)) outcomes.push({ name: s.name, runs: null, checks: [], threw: null });
  const recorded = new Set(rec.checks.map((c) => c.name));
  const unrecorded = gold ? unrecordedChecks(gold, recorded, outcomes) : [];
  const checks = byLevel([...rec.checks, ...unrecorded]);
  const draft: Verdict = {
    schema: "wirebench-verdict/1",
    scorer: "task-score-v4-mandatory-gated",
    task: task.id,
    runId: run.runId,
    seed: run.seed,
    checks,
    raw: 0,
    max: 0,
    score: 0,
    solved: false,
    error,
    ...(run.selfReported ? { selfReported: true as const } : {}),
  };
  const reference = gold ?? manifestFrom(draft);
  if (reference.max <= 0) return { ...draft, error: error ?? { class: "benchmark_verifier_failure", message: "no check with a positive value was recorded" } };
  const s = scoreChecks([...rec.checks, ...unrecorded], reference);
  return error ? { ...draft, raw: s.raw, max: s.max, score: 0, solved: false } : { ...draft, ...s };
}
