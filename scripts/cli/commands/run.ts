import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { SingleBar } from "cli-progress";
import type { Task } from "../../../declarations/schema/task.ts";
import { findTask, TASKS } from "../../../declarations/tasks/index.ts";
import type { AttemptSummary } from "../../agent/attempt.ts";
import { findLane, LANES } from "../../agent/lanes/index.ts";
import type { Lane } from "../../agent/lanes/lane.ts";
import { harnessHash, taskTreeHash, wirebenchVersion } from "../../agent/provenance.ts";
import { checkModel, resolveModel } from "../../agent/resolve-model.ts";
import { registrable } from "../../agent/secrets.ts";
import { bwrapVersion } from "../../agent/sandbox/bwrap.ts";
import { UsageError } from "../errors.ts";
import { controlCall, type FarmHandle } from "../../farm/control-client.ts";
import { openFarm } from "../../farm/open-farm.ts";
import { execLaneOf, refuseExecOptions } from "./exec-lane-of.ts";
import type { ExecOptions } from "./exec-options.ts";

/** Options shared by `wirebench run` and `run-all`. */
export interface RunOptions extends ExecOptions {
  task?: string;
  agent: string;
  /** Required but for the exec lane, where it is a label (default: `exec-` and the template's digest). */
  model?: string;
  trials: string;
  seed?: string;
  timeLimit: string;
  out: string;
  json?: boolean;
  farm?: string;
  jobs?: string;
  shard?: string;
}

function positiveInt(name: string, value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`${name} must be a positive integer, got "${value}"`);
  return Number(value);
}

/** Everything about the request that can be wrong, checked before any world or workspace exists. */
async function prepare(
  opts: RunOptions,
  taskIds: string[],
): Promise<{ lane: Lane; model: string; laneSecrets: string[]; tasks: Task[]; trials: number; seed: number | null; timeLimitS: number; farm: FarmHandle; cli: string }> {
  const exec = opts.agent === "exec" ? execLaneOf(opts) : null;
  const lane = exec?.lane ?? findLane(opts.agent);
  if (!lane) throw new UsageError(`unknown lane "${opts.agent}" (lanes: ${[...LANES.map((l) => l.id), "exec"].join(", ")})`);
  if (!exec) refuseExecOptions(opts, lane.id);
  const model = opts.model ?? exec?.label;
  if (!model) throw new UsageError("--model is required (a model name, or scripted:gold)");
  const tasks = taskIds.map((id) => {
    const entry = findTask(id);
    if (!entry) throw new UsageError(`unknown task "${id}" (known: ${Object.keys(TASKS).join(", ")})`);
    return entry.task;
  });
  const trials = positiveInt("--trials", opts.trials);
  const timeLimitS = positiveInt("--time-limit", opts.timeLimit);
  if (opts.seed !== undefined && !/^\d+$/.test(opts.seed)) throw new UsageError(`--seed must be a non-negative integer, got "${opts.seed}"`);
  const version = lane.version();
  if (!version.ok) throw new UsageError(`the ${lane.id} lane cannot run: ${version.reason}`);
  if (!bwrapVersion()) throw new UsageError("bubblewrap (bwrap) is not installed: apt-get install bubblewrap");
  if (!exec) checkModel(model, lane, tasks);
  const farm = await openFarm(opts.farm);
  // Fails early on a farm that is down or refuses the token (the operator's or a participant's).
  await controlCall(farm, "GET", "/v1/tasks");
  return { lane, model, laneSecrets: exec?.secrets ?? [], tasks, trials, seed: opts.seed === undefined ? null : Number(opts.seed), timeLimitS, farm, cli: version.version };
}

/** `--shard i/n`: the i-th of n slices (1-based). */
export function parseShard(value: string): { index: number; count: number } {
  const m = /^([1-9]\d*)\/([1-9]\d*)$/.exec(value);
  if (!m || Number(m[1]) > Number(m[2])) throw new UsageError(`--shard must be i/n with 1 <= i <= n (e.g. 2/4), got "${value}"`);
  return { index: Number(m[1]), count: Number(m[2]) };
}

/**
 * The attempts of slice `index` of `count`: the sweep's attempts sorted by task id
 * and trial, dealt round-robin. It depends only on the sweep (tasks, trials), never
 * on timing or the machine, so n shards run with the same arguments cover the
 * sweep exactly once between them (sizes differ by at most one).
 */
export function shardOf<T extends { task: { id: string }; trial: number }>(items: T[], shard: { index: number; count: number }): T[] {
  const sorted = [...items].sort((a, b) => (a.task.id < b.task.id ? -1 : a.task.id > b.task.id ? 1 : a.trial - b.trial));
  return sorted.filter((_, k) => k % shard.count === shard.index - 1);
}

export function attemptId(task: string, lane: string, model: string, seed: number, trial: number): string {
  return `${task}--${lane}--${model.replace(/[^A-Za-z0-9._-]+/g, "_")}--s${seed}--t${trial}`;
}

async function one(p: Awaited<ReturnType<typeof prepare>>, opts: RunOptions, task: Task, trial: number): Promise<AttemptSummary> {
  const seed = p.seed ?? task.seed;
  const id = attemptId(task.id, p.lane.id, p.model, seed, trial);
  const bundleDir = join(resolve(opts.out), id);
  // The exec lane's agent brings its own model: no endpoint, `--model` is a label.
  const endpoint = p.lane.id === "exec" ? { model: p.model, baseUrl: "", apiKey: "", scripted: null } : await resolveModel(p.model, p.lane, task);
  // Loaded only once the request checked out: a refused one answers without the attempt's modules (docs, sandbox, lanes' runs).
  const { runAttempt } = await import("../../agent/attempt.ts");
  return runAttempt({
    farm: p.farm,
    task,
    lane: p.lane,
    modelLabel: p.model,
    endpoint,
    seed,
    trial,
    timeLimitS: p.timeLimitS,
    bundleDir,
    attemptId: id,
    secrets: registrable([endpoint.apiKey, ...p.laneSecrets, ...["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY", "DEEPSEEK_API_KEY"].map((k) => process.env[k])]),
    versions: { wirebench: wirebenchVersion(), cli: p.cli },
    hashes: { task_tree: taskTreeHash(task.id), harness: harnessHash() },
  });
}

function line(s: AttemptSummary): string {
  return `${s.attempt}  ${s.score === null ? "ungraded" : `score ${s.score.toFixed(1)}`}  ${s.solved ? "solved" : "not solved"}  ${s.failure_class}  stop=${s.stop_reason}  agent ${s.timing.agent_s.toFixed(1)}s grading ${s.timing.grading_s.toFixed(1)}s${s.error ? `  (${s.error})` : ""}`;
}

/** `wirebench run`: one task, N trials. Exit 0 when every attempt finished, 1 when one could not be graded. */
export async function run(opts: RunOptions): Promise<void> {
  if (!opts.task) throw new UsageError("--task is required");
  const p = await prepare(opts, [opts.task]);
  let ungraded = false;
  try {
    for (let trial = 1; trial <= p.trials; trial++) {
      const s = await one(p, opts, p.tasks[0], trial);
      if (s.reward === null) ungraded = true;
      console.log(opts.json ? JSON.stringify(s, null, 2) : line(s));
    }
  } finally {
    await p.farm.close();
  }
  if (ungraded) process.exitCode = 1;
}

/** `wirebench run-all`: a sweep (or its `--shard i/n` slice), one JSON line per attempt, resumable (finished attempts are skipped). */
export async function runAll(taskIds: string[], opts: RunOptions): Promise<void> {
  const shard = opts.shard === undefined ? null : parseShard(opts.shard);
  // A task named twice is one task: each attempt runs once (and lands in one shard).
  const p = await prepare(opts, taskIds.length ? [...new Set(taskIds)] : Object.keys(TASKS));
  const jobs = positiveInt("--jobs", opts.jobs ?? "1");
  const sweep: { task: Task; trial: number }[] = [];
  for (const task of p.tasks) for (let trial = 1; trial <= p.trials; trial++) sweep.push({ task, trial });
  const queue = shard ? shardOf(sweep, shard) : sweep;
  const bar = process.stderr.isTTY ? new SingleBar({ format: "{bar} {value}/{total} attempts  {last}", stream: process.stderr }) : null;
  bar?.start(queue.length, 0, { last: "" });
  let ungraded = false;
  try {
    const worker = async () => {
      for (let item = queue.shift(); item; item = queue.shift()) {
        const seed = p.seed ?? item.task.seed;
        const done = join(resolve(opts.out), attemptId(item.task.id, p.lane.id, p.model, seed, item.trial), "summary.json");
        const s: AttemptSummary & { skipped?: boolean } = existsSync(done) ? { ...JSON.parse(readFileSync(done, "utf8")), skipped: true } : await one(p, opts, item.task, item.trial);
        if (s.reward === null) ungraded = true;
        process.stdout.write(`${JSON.stringify(s)}\n`);
        bar?.increment({ last: `${s.task} t${s.trial}: ${s.score ?? "ungraded"}` });
      }
    };
    await Promise.all(Array.from({ length: jobs }, worker));
  } finally {
    bar?.stop();
    await p.farm.close();
  }
  if (ungraded) process.exitCode = 1;
}
