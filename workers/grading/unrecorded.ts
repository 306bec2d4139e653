/**
 * @module unrecorded
 * The checks of gold's manifest that a run never recorded. The scorer already
 * counts each as failed at its fail value; the verdict lists them too, failed,
 * with gold's level, values and `mandatory`, and a detail saying why the run
 * has none: the scenario that should have recorded it, and what stopped it.
 */
import type { Check, ConnectorRun, GoldManifest } from "../../evidence/verdict.ts";

/** What one scenario of a run left for this purpose: its runs and checks, or that it had no evidence. */
export interface ScenarioOutcome {
  name: string;
  /** The connector runs, or null when the run has no evidence of this scenario. */
  runs: ConnectorRun[] | null;
  /** The checks its judge and conduct recorded, in order. */
  checks: Check[];
  /** Message of the judge's exception, when it threw. */
  threw: string | null;
}

function runTrouble(r: ConnectorRun): string | null {
  if (r.timedOut) return "timed out";
  if (r.exitCode === null) return "was killed";
  if (r.exitCode !== 0) return `exited ${r.exitCode}`;
  return null;
}

/** Why a scenario did not record a check. */
export function whyNotRecorded(scenario: string | undefined, outcomes: ScenarioOutcome[]): string {
  if (!scenario) return "not recorded: no scenario of this run recorded it";
  const o = outcomes.find((x) => x.name === scenario);
  if (!o?.runs) return `not recorded: scenario ${scenario} did not run`;
  if (o.threw !== null) return `not recorded: the judge of scenario ${scenario} threw (${o.threw})`;
  const failedRun = o.runs.find((r) => runTrouble(r) !== null);
  if (failedRun) return `not recorded: scenario ${scenario}'s run \`${failedRun.label}\` ${runTrouble(failedRun)} before it could be judged`;
  const failedCheck = o.checks.findLast((c) => !c.ok);
  if (failedCheck) return `not recorded: scenario ${scenario}'s judge did not reach it after its check ${failedCheck.name} failed`;
  return `not recorded: scenario ${scenario} ran, but the evidence this check judges was not there`;
}

/** Gold's checks the run lacks, as failed checks at gold's values, each saying why it is missing. */
export function unrecordedChecks(gold: GoldManifest, recorded: ReadonlySet<string>, outcomes: ScenarioOutcome[]): Check[] {
  return gold.checks
    .filter((g) => !recorded.has(g.name))
    .map((g) => ({
      name: g.name,
      ok: false,
      detail: whyNotRecorded(g.scenario, outcomes),
      pass: g.pass,
      fail: g.fail,
      mandatory: g.mandatory,
      level: g.level,
      value: g.fail,
      basis: g.basis,
      ...(g.scenario ? { scenario: g.scenario } : {}),
      recorded: false as const,
    }));
}
