/**
 * @module unrecorded
 * The checks of gold's manifest that a run never recorded. The scorer already
 * counts each as failed at its fail value; the verdict lists them too, failed,
 * with gold's level, values and `mandatory`, and a detail saying why the run
 * has none: the scenario that should have recorded it, and what stopped it.
 *
 * One kind stands instead: a soft conduct check that judges how the connector
 * answers something the vendor sent (a `Retry-After` to wait out, errors not to
 * loop on, a 5xx to resume after), in a scenario whose runs all finished. A
 * connector that never met the trigger (it paced itself under the rate limit,
 * say) did nothing the check forbids, so it is passed at gold's value.
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

/** Soft conduct checks recorded only when the vendor sent what they judge the answer to. */
export const VENDOR_TRIGGERED_CONDUCT: ReadonlySet<string> = new Set(["retry_after_honored", "no_hot_loop_on_error", "resume_not_restart_after_5xx"]);

/** Why a scenario did not record a check; `finished` when it ran to the end and only the check's evidence was absent. */
function whyNotRecorded(scenario: string | undefined, outcomes: ScenarioOutcome[]): { detail: string; finished: boolean } {
  const stopped = (detail: string) => ({ detail, finished: false });
  if (!scenario) return stopped("not recorded: no scenario of this run recorded it");
  const o = outcomes.find((x) => x.name === scenario);
  if (!o?.runs) return stopped(`not recorded: scenario ${scenario} did not run`);
  if (o.threw !== null) return stopped(`not recorded: the judge of scenario ${scenario} threw (${o.threw})`);
  const failedRun = o.runs.find((r) => runTrouble(r) !== null);
  if (failedRun) return stopped(`not recorded: scenario ${scenario}'s run \`${failedRun.label}\` ${runTrouble(failedRun)} before it could be judged`);
  const failedCheck = o.checks.findLast((c) => !c.ok);
  if (failedCheck) return stopped(`not recorded: scenario ${scenario}'s judge did not reach it after its check ${failedCheck.name} failed`);
  return { detail: `not recorded: scenario ${scenario} ran, but the evidence this check judges was not there`, finished: true };
}

/** Gold's checks the run lacks, each saying why it is missing: failed at gold's values, or passed where the run never met a vendor-triggered conduct check's trigger. */
export function unrecordedChecks(gold: GoldManifest, recorded: ReadonlySet<string>, outcomes: ScenarioOutcome[]): Check[] {
  return gold.checks
    .filter((g) => !recorded.has(g.name))
    .map((g) => {
      const why = whyNotRecorded(g.scenario, outcomes);
      const stands = !g.mandatory && VENDOR_TRIGGERED_CONDUCT.has(g.name) && why.finished;
      return {
        name: g.name,
        ok: stands,
        detail: stands ? `${why.detail}: the vendor never sent what it judges the answer to, so nothing it forbids happened` : why.detail,
        pass: g.pass,
        fail: g.fail,
        mandatory: g.mandatory,
        level: g.level,
        value: stands ? g.pass : g.fail,
        basis: g.basis,
        ...(g.scenario ? { scenario: g.scenario } : {}),
        recorded: false as const,
      };
    });
}
