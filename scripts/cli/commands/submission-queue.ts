/**
 * @module submission-queue
 * The client side of the hosted submissions (`/v1/submissions`): what a
 * participant's `wirebench submit` sends and reads, and what an operator's
 * runner (`wirebench grade-all --from-farm`) claims and reports. The runner
 * reports a run it sealed itself, or why the patch was refused; never a
 * verdict, which the grader reads from its own archive.
 */
import type { Prediction } from "../../../evidence/prediction.ts";
import { controlCall, type FarmHandle } from "../../farm/control-client.ts";

/** A submission as the farm shows it (`workers/grader/submission-model.ts`). */
export interface SubmissionView {
  id: string;
  task: string;
  model: string;
  participant: string;
  status: "pending" | "claimed" | "graded" | "failed";
  patchBytes: number;
  patchSha256: string;
  createdAt: number;
  claimedAt: number | null;
  completedAt: number | null;
  run: string | null;
  reason: string | null;
  score: number | null;
  solved: boolean | null;
}

/** A claimed submission: the patch and the claim token its result must carry. */
export interface ClaimedSubmission extends SubmissionView {
  patch: string;
  claim: string;
}

export function submit(farm: FarmHandle, p: Prediction): Promise<{ submission: SubmissionView }> {
  return controlCall(farm, "POST", "/v1/submissions", p);
}

export function listSubmissions(farm: FarmHandle, status?: string): Promise<{ submissions: SubmissionView[] }> {
  return controlCall(farm, "GET", `/v1/submissions${status ? `?status=${encodeURIComponent(status)}` : ""}`);
}

export function getSubmission(farm: FarmHandle, id: string): Promise<{ submission: SubmissionView; verdict: unknown }> {
  return controlCall(farm, "GET", `/v1/submissions/${encodeURIComponent(id)}`);
}

/** Claims the oldest pending submission (or one claimed more than `reclaimAfterS` ago, abandoned), or null when none is left. */
export async function claimNext(farm: FarmHandle, reclaimAfterS?: number): Promise<ClaimedSubmission | null> {
  return (await controlCall<{ submission: ClaimedSubmission | null }>(farm, "POST", "/v1/submissions/claim", reclaimAfterS === undefined ? {} : { reclaimAfterS })).submission;
}

/** Reports the run the runner sealed for a claimed submission, or why its patch was refused. */
export function reportResult(farm: FarmHandle, s: ClaimedSubmission, result: { run: string } | { failure: string }): Promise<{ submission: SubmissionView }> {
  return controlCall(farm, "POST", `/v1/submissions/${encodeURIComponent(s.id)}/result`, { claim: s.claim, ...result });
}

/** Gives a claim back (grading could not finish): the submission is pending again. */
export function releaseClaim(farm: FarmHandle, s: ClaimedSubmission): Promise<{ submission: SubmissionView }> {
  return controlCall(farm, "POST", `/v1/submissions/${encodeURIComponent(s.id)}/release`, { claim: s.claim });
}
