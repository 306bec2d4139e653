import { callerOf } from "../../caller.ts";
import type { GraderContext } from "../../context.ts";
import { StatusQuery, submissionView } from "../../submission-model.ts";
import { listSubmissions } from "../../submission-store.ts";

/**
 * `GET /v1/submissions[?status=]`: the operator sees every participant's
 * (its runner's queue is `?status=pending`), a participant its own.
 */
export async function listSubmissionsRoute(c: GraderContext): Promise<Response> {
  const caller = callerOf(c);
  if (!caller) return c.json({ error: "no caller: the grader is reached through the farm" }, 401);
  const status = StatusQuery.safeParse(c.req.query("status"));
  if (!status.success) return c.json({ error: "status: one of pending, claimed, graded, failed" }, 400);
  const rows = await listSubmissions(c.env.DB, { participant: caller.kind === "participant" ? caller.id : undefined, status: status.data });
  return c.json({ submissions: rows.map((r) => submissionView(r.row, r.score === null || r.solved === null ? null : { score: r.score, solved: r.solved })) });
}
