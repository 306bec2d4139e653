/**
 * @module submission-model
 * The submission resource (`/v1/submissions`): what a participant may send
 * (a `Prediction`: task, model, patch), what the operator's runner sends back
 * (the run it sealed, or why the patch was refused, always with its claim
 * token; never a verdict or a score, which the grader reads from its own
 * archive), and how a submission is shown.
 */
import { z } from "zod";
import { Prediction } from "../../evidence/prediction.ts";
import type { SubmissionStatus, submissions } from "../db/schema.ts";

/** Largest patch a hosted submission may hold (bytes): it is kept as one D1 value, which D1 caps at 2 MB. */
export const SUBMISSION_PATCH_MAX_BYTES = 1024 ** 2;
/** Largest body `POST /v1/submissions` reads (the patch JSON-escaped, and the rest). */
export const SUBMISSION_BODY_MAX_BYTES = 4 * 1024 ** 2;

export const SUBMISSION_STATUSES = ["pending", "claimed", "graded", "failed"] as const satisfies readonly SubmissionStatus[];

/** Body of `POST /v1/submissions`. */
export const SubmitBody = Prediction;

/** Seconds after which a claim with no result counts as abandoned (its runner died) and may be claimed again. */
export const DEFAULT_RECLAIM_AFTER_S = 6 * 3600;

/**
 * Body of `POST /v1/submissions/claim`: the oldest pending submission is
 * claimed, or one whose claim is older than `reclaimAfterS` (its runner is
 * taken to have died; its claim token then completes nothing).
 */
export const ClaimBody = z.strictObject({
  reclaimAfterS: z
    .number()
    .int()
    .min(1)
    .max(30 * 86_400)
    .default(DEFAULT_RECLAIM_AFTER_S),
});

const ClaimToken = z.string().min(1).max(100);

/**
 * Body of `POST /v1/submissions/:id/result`: the run the runner sealed for it
 * (graded), or why its patch was refused (failed). Strict: a verdict, a score
 * or anything else is refused.
 */
export const ResultBody = z.union([z.strictObject({ claim: ClaimToken, run: z.string().min(1).max(100) }), z.strictObject({ claim: ClaimToken, failure: z.string().min(1).max(4000) })]);

/** Body of `POST /v1/submissions/:id/release`. */
export const ReleaseBody = z.strictObject({ claim: ClaimToken });

/** `?status=` of `GET /v1/submissions`. */
export const StatusQuery = z.enum(SUBMISSION_STATUSES).optional();

export type SubmissionRow = typeof submissions.$inferSelect;

/** A submission as shown to its participant and the operator: no patch, no claim token; the score is the sealed run's verdict's. */
export function submissionView(row: SubmissionRow, verdict: { score: number; solved: boolean } | null) {
  return {
    id: row.id,
    task: row.task,
    model: row.model,
    participant: row.participant,
    status: row.status,
    patchBytes: row.patchBytes,
    patchSha256: row.patchSha256,
    createdAt: row.createdAt,
    claimedAt: row.claimedAt,
    completedAt: row.completedAt,
    run: row.run,
    reason: row.reason,
    score: row.status === "failed" ? 0 : (verdict?.score ?? null),
    solved: row.status === "failed" ? false : (verdict?.solved ?? null),
  };
}
