/**
 * @module submission-verbs
 * The verbs of submitted patches: `grade-all` (local predictions, or the
 * operator's runner over a farm's submissions), `submit` and `submissions`
 * (a participant's side of the hosted path). Each verb loads its module when it runs.
 */
import type { Command } from "commander";
import { guarded } from "../errors.ts";

export function registerSubmissionVerbs(program: Command): void {
  program
    .command("grade-all")
    .description(
      "grade submitted patches: a JSON Lines file of {task, model, patch} or a folder of <task>.diff (one bundle each, resumable), or a farm's pending submissions (--from-farm, the operator's runner)",
    )
    .option("--predictions <path>", "predictions file (JSON Lines) or folder of <task>.diff files")
    .option("--from-farm <url>", "claim and grade the pending submissions of this farm (the operator's runner; WIREBENCH_ADMIN_TOKEN)")
    .option("--model <name>", "model label of a folder of <task>.diff files (default: the folder's name)")
    .option("--jobs <n>", "gradings at a time", "1")
    .option("--out <dir>", "folder of bundles", "runs")
    .option("--seed <n>", "world seed (default: each task's)")
    .option("--farm <url>", "farm URL (default: reuse or start a local farm)")
    .option("--reclaim-after <s>", "with --from-farm: also claim submissions claimed more than this many seconds ago and never finished (default: the farm's, 6 h)")
    .action((opts) => guarded(async () => (await import("./grade-all.ts")).gradeAll(opts)));

  program
    .command("submit")
    .description("submit a patch for a task to a hosted farm (participant key in WIREBENCH_KEY); the operator's runner grades it")
    .requiredOption("--task <task>", "task id (task-0001)")
    .requiredOption("--model <name>", "model label the result is published under")
    .requiredOption("--patch <file>", "git diff against the task's starter repository")
    .option("--json", "print the submission as JSON")
    .option("--farm <url>", "the hosted farm (required)")
    .action((opts) => guarded(async () => (await import("./submit.ts")).submitCommand(opts)));

  program
    .command("submissions")
    .description("list your submissions on a hosted farm, or read one with its verdict")
    .argument("[id]", "a submission id")
    .option("--status <status>", "only pending, claimed, graded or failed ones")
    .option("--json", "print JSON")
    .option("--farm <url>", "the hosted farm (required)")
    .action((id, opts) => guarded(async () => (await import("./submit.ts")).submissionsCommand(id, opts)));
}
