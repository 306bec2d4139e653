import { callerOf, owns } from "../../caller.ts";
import type { GraderContext } from "../../context.ts";
import { submissionView } from "../../submission-model.ts";
import { findSubmission, runVerdict } from "../../submission-store.ts";

/** `GET /v1/submissions/:id`: the submission and, once graded, its run's verdict; only to its participant and the operator. */
export async function getSubmissionRoute(c: GraderContext): Promise<Response> {
  const caller = callerOf(c);
  const id = c.req.param("id")!;
  const row = await findSubmission(c.env.DB, id);
  if (!caller || !row || !owns(caller, row.participant)) return c.json({ error: `unknown submission "${id}"` }, 404);
  const verdict = row.status === "graded" ? await runVerdict(c.env.DB, row.run) : null;
  return c.json({ submission: submissionView(row, verdict), verdict: verdict ? JSON.parse(verdict.json) : null });
}
