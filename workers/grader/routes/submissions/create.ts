import { sha256Hex } from "../../../../mechanics/kit/hmac.ts";
import { randomToken } from "../../../engine/auth/credentials.ts";
import { discardBody } from "../../capped-json.ts";
import { callerOf } from "../../caller.ts";
import { readCappedJson } from "../../capped-json.ts";
import type { GraderContext } from "../../context.ts";
import { SUBMISSION_BODY_MAX_BYTES, SUBMISSION_PATCH_MAX_BYTES, SubmitBody, submissionView } from "../../submission-model.ts";
import { insertWithinQuota, nextDayMs } from "../../submission-store.ts";
import { isPublicTask } from "../tasks.ts";

/**
 * `POST /v1/submissions {task, model, patch}` (a participant): stores a patch
 * for a public task, within the participant's daily quota, for the operator's
 * runner to grade.
 */
export async function createSubmission(c: GraderContext): Promise<Response> {
  const caller = callerOf(c);
  if (caller?.kind !== "participant") {
    await discardBody(c);
    return c.json({ error: "submissions are a participant's (a participant key); the operator grades its own patches with wirebench grade-all --predictions" }, 403);
  }
  const body = await readCappedJson(c, SubmitBody, SUBMISSION_BODY_MAX_BYTES);
  if (body instanceof Response) return body;
  const patchBytes = new TextEncoder().encode(body.patch).length;
  if (patchBytes > SUBMISSION_PATCH_MAX_BYTES) return c.json({ error: `patch: ${patchBytes} bytes, over the ${SUBMISSION_PATCH_MAX_BYTES}-byte limit of a hosted submission` }, 413);
  if (!isPublicTask(body.task)) return c.json({ error: `unknown task "${body.task}"` }, 404);
  const now = Date.now();
  const row = {
    id: `sub_${randomToken(8)}`,
    participant: caller.id,
    task: body.task,
    model: body.model,
    patch: body.patch,
    patchSha256: await sha256Hex(body.patch),
    patchBytes,
    status: "pending" as const,
    createdAt: now,
    claim: null,
    claimedAt: null,
    completedAt: null,
    run: null,
    reason: null,
  };
  if (!(await insertWithinQuota(c.env.DB, row, caller.quota.submissionsPerDay))) {
    c.header("retry-after", String(Math.ceil((nextDayMs(now) - now) / 1000)));
    return c.json({ error: `submission quota exhausted: ${caller.quota.submissionsPerDay} per UTC day` }, 429);
  }
  return c.json({ submission: submissionView(row, null) }, 201);
}
