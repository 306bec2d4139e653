/**
 * @module grade-all
 * `wirebench grade-all`: grades submitted patches in the SWE-bench way.
 * `--predictions FILE|DIR` grades a JSON Lines file of `{task, model, patch}`
 * (or a folder of `<task>.diff`), one bundle per prediction in `--out`,
 * skipping bundles already complete for the same patch, so a stopped run
 * resumes. `--from-farm URL` is the operator's runner: it claims the farm's
 * pending submissions one at a time, grades each the same way against fresh
 * worlds of that farm, seals the runs itself and reports each run (or why the
 * patch was refused) back to the submission.
 */
import { existsSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Prediction } from "../../../evidence/prediction.ts";
import { findTask } from "../../../declarations/tasks/index.ts";
import { clearPartials, completeBundle, EXTERNAL_LANE, type ExternalSummary, gradePrediction } from "../../agent/external-attempt.ts";
import { harnessHash, taskTreeHash, wirebenchVersion } from "../../agent/provenance.ts";
import { bwrapVersion } from "../../agent/sandbox/bwrap.ts";
import { PARTICIPANT_KEY_PREFIX } from "../../../workers/middleware/principal/principal.ts";
import { UsageError } from "../errors.ts";
import { controlCall, type FarmHandle } from "../../farm/control-client.ts";
import { openFarm } from "../../farm/open-farm.ts";
import { modelSlug, type PredictionProblem, readPredictionsFile, readPredictionsFolder } from "./predictions.ts";
import { type ClaimedSubmission, claimNext, releaseClaim, reportResult } from "./submission-queue.ts";

export interface GradeAllOptions {
  predictions?: string;
  fromFarm?: string;
  model?: string;
  jobs: string;
  out: string;
  seed?: string;
  farm?: string;
  reclaimAfter?: string;
}

/** The attempt id of a prediction (and of a hosted submission, whose id makes it unique). */
export function externalAttemptId(p: Prediction, seed: number, submission?: string): string {
  return `${p.task}--${EXTERNAL_LANE}--${modelSlug(p.model)}--s${seed}${submission ? `--${modelSlug(submission)}` : ""}`;
}

function positiveInt(name: string, value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`${name} must be a positive integer, got "${value}"`);
  return Number(value);
}

function line(s: ExternalSummary & { skipped?: boolean }): string {
  return JSON.stringify(s);
}

function problem(p: PredictionProblem): void {
  console.error(`wirebench: ${p.source}: ${p.message}`);
}

/** `wirebench grade-all`. Exit 0 when every prediction was graded (whatever it scored), 1 when one could not be, 2 on bad input. */
export async function gradeAll(opts: GradeAllOptions): Promise<void> {
  if ((opts.predictions === undefined) === (opts.fromFarm === undefined)) throw new UsageError("give one of --predictions FILE|DIR or --from-farm URL");
  const jobs = positiveInt("--jobs", opts.jobs);
  if (opts.seed !== undefined && !/^\d+$/.test(opts.seed)) throw new UsageError(`--seed must be a non-negative integer, got "${opts.seed}"`);
  const reclaimAfterS = opts.reclaimAfter === undefined ? undefined : positiveInt("--reclaim-after", opts.reclaimAfter);
  if (reclaimAfterS !== undefined && opts.fromFarm === undefined) throw new UsageError("--reclaim-after is for the runner of a farm's submissions (--from-farm URL)");
  if (opts.fromFarm !== undefined && opts.farm !== undefined) throw new UsageError("--from-farm URL is also the farm that grades: leave --farm out");
  if (!bwrapVersion()) throw new UsageError("grading runs the connector in the sandbox, which needs bubblewrap (apt-get install bubblewrap)");
  const out = resolve(opts.out);
  const provenance = { versions: { wirebench: wirebenchVersion(), cli: EXTERNAL_LANE }, harness: harnessHash() };
  const seedOf = (task: string) => (opts.seed === undefined ? findTask(task)!.task.seed : Number(opts.seed));
  let failed = false;

  if (opts.predictions !== undefined) {
    const path = resolve(opts.predictions);
    if (!existsSync(path)) throw new UsageError(`no such predictions file or folder: ${opts.predictions}`);
    const folder = statSync(path).isDirectory();
    if (opts.model !== undefined && !folder) throw new UsageError("--model names the model of a folder of <task>.diff files; a predictions file names it on each line");
    const read = folder ? readPredictionsFolder(path, opts.model) : await readPredictionsFile(path);
    for (const p of read.problems) problem(p);
    if (read.problems.length) failed = true;
    const farm = await openFarm(opts.farm);
    clearPartials(out);
    const queue = [...read.items];
    try {
      const worker = async () => {
        for (let item = queue.shift(); item; item = queue.shift()) {
          const { prediction } = item;
          const seed = seedOf(prediction.task);
          const id = externalAttemptId(prediction, seed);
          const done = completeBundle(out, id, prediction.patch);
          if (done) {
            console.log(line({ ...done, skipped: true }));
            continue;
          }
          try {
            const task = findTask(prediction.task)!.task;
            console.log(
              line(
                await gradePrediction({
                  farm,
                  task,
                  prediction,
                  seed,
                  runsDir: out,
                  attemptId: id,
                  versions: provenance.versions,
                  hashes: { task_tree: taskTreeHash(task.id), harness: provenance.harness },
                }),
              ),
            );
          } catch (err) {
            failed = true;
            problem({ source: item.source, message: `not graded: ${(err as Error).message}` });
          }
        }
      };
      await Promise.all(Array.from({ length: jobs }, worker));
    } finally {
      await farm.close();
    }
  } else {
    if (process.env.WIREBENCH_KEY?.startsWith(PARTICIPANT_KEY_PREFIX))
      throw new UsageError("grade-all --from-farm is the operator's runner: it needs WIREBENCH_ADMIN_TOKEN, and WIREBENCH_KEY (a participant key) must be unset");
    const farm = await openFarm(opts.fromFarm);
    // Fails early on a farm that is down or refuses the token.
    await controlCall(farm, "GET", "/v1/submissions?status=pending");
    clearPartials(out);
    // A worker whose grading failed stops: the claim it gave back would come straight back to it.
    const worker = async () => {
      for (let s = await claimNext(farm, reclaimAfterS); s; s = await claimNext(farm, reclaimAfterS))
        if (!(await gradeClaimed(farm, s, out, seedOf, provenance))) {
          failed = true;
          return;
        }
    };
    await Promise.all(Array.from({ length: jobs }, worker));
  }
  if (failed) process.exitCode = 1;
}

/** Grades one claimed submission and reports it; false when it could not be graded (the claim is given back). */
async function gradeClaimed(
  farm: FarmHandle,
  s: ClaimedSubmission,
  out: string,
  seedOf: (task: string) => number,
  provenance: { versions: ExternalSummary["versions"]; harness: string },
): Promise<boolean> {
  const entry = findTask(s.task);
  const source = `submission ${s.id}`;
  if (!entry?.gold) {
    // A task this runner's checkout does not know (or cannot score): another runner may.
    await releaseClaim(farm, s);
    problem({ source, message: `task ${s.task} is not known to this checkout with a gold manifest; the claim is given back` });
    return false;
  }
  const prediction: Prediction = { task: s.task, model: s.model, patch: s.patch };
  const seed = seedOf(s.task);
  const attemptId = externalAttemptId(prediction, seed, s.id);
  try {
    const summary = await gradePrediction({
      farm,
      task: entry.task,
      prediction,
      seed,
      runsDir: out,
      attemptId,
      submission: { id: s.id, participant: s.participant },
      versions: provenance.versions,
      hashes: { task_tree: taskTreeHash(s.task), harness: provenance.harness },
    });
    await reportResult(farm, s, summary.run ? { run: summary.run } : { failure: summary.error ?? "the patch was refused" });
    console.log(line(summary));
    return true;
  } catch (err) {
    // No bundle for a grading the farm did not take: the submission will be graded again.
    rmSync(join(out, attemptId), { recursive: true, force: true });
    await releaseClaim(farm, s).catch(() => undefined);
    problem({ source, message: `not graded (the claim is given back): ${(err as Error).message}` });
    return false;
  }
}
