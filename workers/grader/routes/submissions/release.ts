import { readJson } from "../../../control/read-json.ts";
import { discardBody } from "../../capped-json.ts";
import { callerOf } from "../../caller.ts";
import type { GraderContext } from "../../context.ts";
import { ReleaseBody, submissionView } from "../../submission-model.ts";
import { releaseClaimed } from "../../submission-store.ts";

/** `POST /v1/submissions/:id/release {claim}` (the operator's runner): gives back a claim it could not finish; the submission is pending again. */
export async function releaseSubmission(c: GraderContext): Promise<Response> {
  if (callerOf(c)?.kind !== "admin") {
    await discardBody(c);
    return c.json({ error: "only the operator's runner (admin token) releases claims" }, 403);
  }
  const id = c.req.param("id")!;
  const body = await readJson(c, ReleaseBody);
  if (body instanceof Response) return body;
  const row = await releaseClaimed(c.env.DB, id, body.claim);
  if (!row) return c.json({ error: `submission ${id} is not held by this claim` }, 409);
  return c.json({ submission: submissionView(row, null) });
}
