/**
 * @module submit
 * A participant's side of the hosted path: `wirebench submit` sends a patch
 * for a task to a farm (`POST /v1/submissions`, with WIREBENCH_KEY), and
 * `wirebench submissions [ID]` reads its submissions and, once the operator's
 * runner has graded one, its verdict.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { Prediction } from "../../../evidence/prediction.ts";
import { describeZodError } from "../../../workers/control/schemas.ts";
import { UsageError } from "../errors.ts";
import { openFarm } from "../../farm/open-farm.ts";
import { getSubmission, listSubmissions, type SubmissionView, submit } from "./submission-queue.ts";

function view(s: SubmissionView): string {
  const result = s.status === "graded" ? `score ${s.score?.toFixed(1)} ${s.solved ? "solved" : "not solved"}  run ${s.run}` : s.status === "failed" ? `score 0  (${s.reason})` : "";
  return `${s.id}  ${s.task}  ${s.model}  ${s.status}  ${result}`.trimEnd();
}

/** `wirebench submit --task T --model M --patch FILE --farm URL`. */
export async function submitCommand(opts: { task: string; model: string; patch: string; farm?: string; json?: boolean }): Promise<void> {
  if (!opts.farm) throw new UsageError("--farm URL is required: submissions go to a hosted farm");
  if (!existsSync(opts.patch) || !statSync(opts.patch).isFile()) throw new UsageError(`--patch ${opts.patch} is not a file`);
  const parsed = Prediction.safeParse({ task: opts.task, model: opts.model, patch: readFileSync(opts.patch, "utf8") });
  if (!parsed.success) throw new UsageError(describeZodError(parsed.error));
  const farm = await openFarm(opts.farm, "require");
  const r = await submit(farm, parsed.data);
  console.log(opts.json ? JSON.stringify(r.submission, null, 2) : `submitted ${view(r.submission)}`);
}

/** `wirebench submissions [ID] --farm URL`: the caller's submissions, or one with its verdict. */
export async function submissionsCommand(id: string | undefined, opts: { farm?: string; status?: string; json?: boolean }): Promise<void> {
  if (!opts.farm) throw new UsageError("--farm URL is required: submissions live on a hosted farm");
  const farm = await openFarm(opts.farm, "require");
  if (id) {
    const r = await getSubmission(farm, id);
    console.log(opts.json ? JSON.stringify(r, null, 2) : view(r.submission));
    return;
  }
  const r = await listSubmissions(farm, opts.status);
  if (opts.json) console.log(JSON.stringify(r.submissions, null, 2));
  else for (const s of r.submissions) console.log(view(s));
}
