import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { runs, submissions } from "../../../db/schema.ts";
import { readJson } from "../../../control/read-json.ts";
import { discardBody } from "../../capped-json.ts";
import { callerOf } from "../../caller.ts";
import type { GraderContext } from "../../context.ts";
import { ResultBody, type SubmissionRow, submissionView } from "../../submission-model.ts";
import { completeClaimed, findSubmission, runVerdict } from "../../submission-store.ts";

/** Why a run cannot stand as a claimed submission's grading, or null. */
async function runRefusal(c: GraderContext, sub: SubmissionRow, runId: string): Promise<{ error: string; status: 404 | 409 } | null> {
  const db = drizzle(c.env.DB);
  const run = (await db.select().from(runs).where(eq(runs.id, runId)).limit(1))[0];
  if (!run) return { error: `unknown run "${runId}"`, status: 404 };
  if (run.participant !== null || run.selfReported) return { error: `run ${runId} was sealed by a participant: a submission is graded only by a run the operator sealed`, status: 409 };
  if (run.task !== sub.task) return { error: `run ${runId} is of ${run.task}, the submission of ${sub.task}`, status: 409 };
  const taken = (await db.select({ id: submissions.id }).from(submissions).where(eq(submissions.run, runId)).limit(1))[0];
  if (taken) return { error: `run ${runId} already grades submission ${taken.id}`, status: 409 };
  if (sub.claimedAt === null || run.createdAt < sub.claimedAt) return { error: `run ${runId} was sealed before the submission was claimed: grade it against a fresh world`, status: 409 };
  if (!(await runVerdict(c.env.DB, runId))) return { error: `run ${runId} has no verdict yet: grade it first (POST /v1/runs/${runId}/grade)`, status: 409 };
  return null;
}

/**
 * `POST /v1/submissions/:id/result {claim, run} | {claim, failure}` (the
 * operator's runner): the run it sealed for the claimed submission, or why
 * the patch was refused (scored 0). The verdict is the grader's own for that
 * run; a body carrying a verdict or a score is refused.
 */
export async function submissionResult(c: GraderContext): Promise<Response> {
  if (callerOf(c)?.kind !== "admin") {
    await discardBody(c);
    return c.json({ error: "only the operator's runner (admin token) reports results" }, 403);
  }
  const id = c.req.param("id")!;
  const body = await readJson(c, ResultBody);
  if (body instanceof Response) return body;
  const sub = await findSubmission(c.env.DB, id);
  if (!sub) return c.json({ error: `unknown submission "${id}"` }, 404);
  if (sub.status !== "claimed" || sub.claim !== body.claim) return c.json({ error: `submission ${id} is not held by this claim (it is ${sub.status})` }, 409);
  if ("run" in body) {
    const refused = await runRefusal(c, sub, body.run);
    if (refused) return c.json({ error: refused.error }, refused.status);
  }
  let done: SubmissionRow | null;
  try {
    done = await completeClaimed(c.env.DB, id, body.claim, "run" in body ? { run: body.run } : { reason: body.failure }, Date.now());
  } catch (err) {
    // The run's unique index: another submission took the run meanwhile.
    if (/UNIQUE/i.test(String((err as Error).message))) return c.json({ error: `run already grades another submission` }, 409);
    throw err;
  }
  if (!done) return c.json({ error: `submission ${id} is not held by this claim any more` }, 409);
  return c.json({ submission: submissionView(done, await runVerdict(c.env.DB, done.run)) });
}
