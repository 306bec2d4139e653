/**
 * @module shared/command-runs
 * Whether the connector's commands of a scenario ran through: each one ran,
 * did not time out, exited 0, and left its output files readable. The drive
 * asks it of one run before going on; the judge records it as the
 * scenario's plumbing check.
 */
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ConnectorRun, ScenarioEvidence } from "../../../evidence/verdict.ts";
import { byLabel, lastError, outputProblem, outputRows } from "./judging.ts";

/** Whether a run exited 0 (in time) and left every one of `files` readable: the drive stops early otherwise. */
export function usableRun(run: ConnectorRun, files: readonly string[]): boolean {
  return run.exitCode === 0 && !run.timedOut && files.every((f) => outputRows(run, f) !== null);
}

/** What went wrong with the runs labelled `labels`, in their order: none when each ran, exited 0 and left `files` readable. */
export function runProblems(e: ScenarioEvidence, labels: readonly string[], files: readonly string[]): string[] {
  const problems: string[] = [];
  for (const label of labels) {
    const run = byLabel(e, label);
    if (!run) problems.push(`${label} did not run`);
    else if (run.timedOut) problems.push(`${label} timed out`);
    else if (run.exitCode !== 0) problems.push(`${label} exited ${run.exitCode}: ${lastError(run.stderrTail)}`);
    else for (const p of files.map((f) => outputProblem(run, f))) if (p) problems.push(`${label}: ${p}`);
  }
  return problems;
}

/**
 * Records the plumbing check (0/-1) under `name` on the ticket's "Every
 * command exits 0": passed when `problems` is empty, else naming them.
 * Returns whether it passed.
 */
export function recordCommandsRan(c: CheckRecorder, name: string, problems: readonly string[]): boolean {
  const ok = problems.length === 0;
  c.check(name, ok, { basis: { ticket: "Every command exits 0" }, pass: 0, fail: -1, detail: ok ? "every command exited 0, outputs readable" : problems.join("; ") });
  return ok;
}

/** The plumbing check over the runs labelled `labels`: each ran, exited 0 and left `files` readable. */
export function commandsRanOk(c: CheckRecorder, name: string, e: ScenarioEvidence, labels: readonly string[], files: readonly string[]): boolean {
  return recordCommandsRan(c, name, runProblems(e, labels, files));
}
