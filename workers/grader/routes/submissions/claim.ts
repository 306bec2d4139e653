import { randomToken } from "../../../engine/auth/credentials.ts";
import { discardBody } from "../../capped-json.ts";
import { callerOf } from "../../caller.ts";
import type { GraderContext } from "../../context.ts";
import { ClaimBody, submissionView } from "../../submission-model.ts";
import { readJson } from "../../../control/read-json.ts";
import { claimOldest } from "../../submission-store.ts";

/**
 * `POST /v1/submissions/claim` (the operator's runner): takes the oldest
 * pending submission (or one whose claim is older than `reclaimAfterS`,
 * default 6 h: its runner died), atomically, so two runners never hold the same one.
 * Answers it with its patch and the claim token its result must carry, or
 * `{submission: null}` when none is pending.
 */
export async function claimSubmission(c: GraderContext): Promise<Response> {
  if (callerOf(c)?.kind !== "admin") {
    await discardBody(c);
    return c.json({ error: "only the operator's runner (admin token) claims submissions" }, 403);
  }
  const body = await readJson(c, ClaimBody);
  if (body instanceof Response) return body;
  const claim = `clm_${randomToken(16)}`;
  const now = Date.now();
  const row = await claimOldest(c.env.DB, claim, now, now - body.reclaimAfterS * 1000);
  return c.json({ submission: row ? { ...submissionView(row, null), patch: row.patch, claim } : null });
}
