import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { findTask, TASKS } from "../../../declarations/tasks/index.ts";
import type { Task } from "../../../declarations/schema/task.ts";
import type { Check, Verdict } from "../../../evidence/verdict.ts";
import { bwrapVersion } from "../../agent/sandbox/bwrap.ts";
import { openConnectorSandbox } from "../../agent/sandbox/connector-sandbox.ts";
import { submittedTree } from "../../agent/submitted-tree.ts";
import { gradeRepo } from "../../harness/grade-repo.ts";
import { taskDir } from "../../harness/workspace.ts";
import { UsageError } from "../errors.ts";
import { openFarm } from "../../farm/open-farm.ts";

/** Options of `wirebench grade`. */
export interface GradeOptions {
  task: string;
  repo: string;
  seed?: string;
  timeLimit?: string;
  json?: boolean;
  farm?: string;
  /** Plain host processes instead of the sandbox. */
  trusted?: boolean;
}

/** A readable table of a verdict's checks. */
export function formatVerdict(v: Verdict): string {
  const lines = [`${v.task}  run ${v.runId}  seed ${v.seed}`];
  for (const level of ["l1", "l2", "l3"] as const) {
    for (const c of v.checks[level] as Check[]) {
      lines.push(`  ${c.ok ? "ok  " : "FAIL"} ${level} ${c.mandatory ? "*" : " "} ${c.name.padEnd(44)} ${String(c.value).padStart(2)}  ${c.detail}`);
    }
  }
  const unrecorded = [...v.checks.l1, ...v.checks.l2, ...v.checks.l3].filter((c) => c.recorded === false).length;
  if (unrecorded) lines.push(`  ${unrecorded} of gold's checks were not recorded by this run: listed FAIL at their fail value, as the score counts them`);
  if (v.error) lines.push(`  error: ${v.error.class}: ${v.error.message}`);
  lines.push(`score ${v.score.toFixed(1)} / 100  (raw ${v.raw} of ${v.max})  ${v.solved ? "solved" : "not solved"}   (* = mandatory)`);
  return lines.join("\n");
}

/**
 * `wirebench grade --task T --repo DIR`: grades a connector folder against a
 * fresh world, as a run would: the starter plus the patch the folder makes
 * against it (submitted-tree.ts), so what its `.gitignore` excludes (state
 * left by runs against a development world, output) is not graded. The
 * connector is untrusted code: it runs in the sandbox unless `--trusted` says
 * it is the caller's own.
 */
export async function grade(opts: GradeOptions): Promise<void> {
  const entry = findTask(opts.task);
  if (!entry) throw new UsageError(`unknown task "${opts.task}" (known: ${Object.keys(TASKS).join(", ") || "none"})`);
  const repoDir = resolve(opts.repo);
  if (!existsSync(repoDir) || !statSync(repoDir).isDirectory()) throw new UsageError(`--repo ${opts.repo} is not a folder`);
  if (opts.seed !== undefined && !/^\d+$/.test(opts.seed)) throw new UsageError(`--seed must be a non-negative integer, got "${opts.seed}"`);
  if (opts.timeLimit !== undefined && !/^[1-9]\d*$/.test(opts.timeLimit)) throw new UsageError(`--time-limit must be a positive number of seconds, got "${opts.timeLimit}"`);
  if (!entry.gold) throw new UsageError(`task ${opts.task} has no gold manifest yet; run wirebench validate ${opts.task} --write-gold`);
  if (!opts.trusted && !bwrapVersion()) throw new UsageError("the sandbox needs bubblewrap (apt-get install bubblewrap); --trusted runs the connector as plain host processes");
  const scratch = mkdtempSync(join(tmpdir(), "wb-grade-"));
  try {
    const submitted = join(scratch, "repo");
    const taken = submittedTree(join(taskDir(entry.task.id), "repo"), repoDir, submitted);
    if (!taken.ok) throw new UsageError(`--repo ${opts.repo}: ${taken.reason}`);
    await gradeSubmitted(opts, entry.task, submitted);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Grades the submitted tree against a fresh world of the task and prints the verdict. */
async function gradeSubmitted(opts: GradeOptions, task: Task, submitted: string): Promise<void> {
  const farm = await openFarm(opts.farm);
  try {
    const verdict = await gradeRepo({
      farm,
      task,
      repoDir: submitted,
      seed: opts.seed === undefined ? undefined : Number(opts.seed),
      timeLimitS: opts.timeLimit === undefined ? undefined : Number(opts.timeLimit),
      connectors: opts.trusted ? undefined : (world) => openConnectorSandbox(farm.url, world),
    });
    console.log(opts.json ? JSON.stringify(verdict, null, 2) : formatVerdict(verdict));
  } finally {
    await farm.close();
  }
}
