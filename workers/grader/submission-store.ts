/**
 * @module submission-store
 * The archive's submissions. Every change of state is one conditional
 * statement, and D1 runs one statement at a time: a participant's daily quota
 * cannot be passed by concurrent submits, a pending submission is claimed by
 * one runner only, and only the claim's holder completes or releases it.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { submissions, verdicts } from "../db/schema.ts";
import type { SubmissionRow } from "./submission-model.ts";

const DAY_MS = 86_400_000;

/** Adds a submission only while its participant has submitted fewer than `perDay` this UTC day; false when the quota is spent. */
export async function insertWithinQuota(db: D1Database, row: SubmissionRow, perDay: number): Promise<boolean> {
  const dayStart = Math.floor(row.createdAt / DAY_MS) * DAY_MS;
  const result = await drizzle(db).run(sql`
    INSERT INTO submissions (id, participant, task, model, patch, patch_sha256, patch_bytes, status, created_at, claim, claimed_at, completed_at, run, reason)
    SELECT ${row.id}, ${row.participant}, ${row.task}, ${row.model}, ${row.patch}, ${row.patchSha256}, ${row.patchBytes}, 'pending', ${row.createdAt}, NULL, NULL, NULL, NULL, NULL
    WHERE (SELECT count(*) FROM submissions WHERE participant = ${row.participant} AND created_at >= ${dayStart}) < ${perDay}`);
  return result.meta.changes === 1;
}

/** The start of the next UTC day after `nowMs`. */
export const nextDayMs = (nowMs: number) => (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS;

export async function findSubmission(db: D1Database, id: string): Promise<SubmissionRow | null> {
  return (await drizzle(db).select().from(submissions).where(eq(submissions.id, id)).limit(1))[0] ?? null;
}

/** Submissions (a participant's, or everyone's), oldest first, with their runs' verdicts' scores. */
export async function listSubmissions(db: D1Database, filter: { participant?: string; status?: SubmissionRow["status"] }, limit = 1000) {
  const where = and(filter.participant === undefined ? undefined : eq(submissions.participant, filter.participant), filter.status === undefined ? undefined : eq(submissions.status, filter.status));
  return drizzle(db)
    .select({ row: submissions, score: verdicts.score, solved: verdicts.solved })
    .from(submissions)
    .leftJoin(verdicts, eq(verdicts.runId, submissions.run))
    .where(where)
    .orderBy(asc(submissions.createdAt), asc(submissions.id))
    .limit(limit);
}

/**
 * Claims, for the holder of `claim`, the oldest submission that is pending or
 * whose claim was taken before `staleBeforeMs` (abandoned); null when there is none.
 */
export async function claimOldest(db: D1Database, claim: string, nowMs: number, staleBeforeMs: number): Promise<SubmissionRow | null> {
  const open = sql`(${submissions.status} = 'pending' OR (${submissions.status} = 'claimed' AND ${submissions.claimedAt} < ${staleBeforeMs}))`;
  const rows = await drizzle(db)
    .update(submissions)
    .set({ status: "claimed", claim, claimedAt: nowMs })
    .where(and(open, eq(submissions.id, sql`(SELECT id FROM submissions WHERE ${open} ORDER BY created_at, id LIMIT 1)`)))
    .returning();
  return rows[0] ?? null;
}

/** Completes a claimed submission held by `claim`; null when it is not (any more) held by that claim. */
export async function completeClaimed(db: D1Database, id: string, claim: string, result: { run: string } | { reason: string }, nowMs: number): Promise<SubmissionRow | null> {
  const set = "run" in result ? { status: "graded" as const, run: result.run } : { status: "failed" as const, reason: result.reason };
  const rows = await drizzle(db)
    .update(submissions)
    .set({ ...set, claim: null, completedAt: nowMs })
    .where(and(eq(submissions.id, id), eq(submissions.status, "claimed"), eq(submissions.claim, claim)))
    .returning();
  return rows[0] ?? null;
}

/** Gives a claim back: the submission is pending again. Null when `claim` does not hold it. */
export async function releaseClaimed(db: D1Database, id: string, claim: string): Promise<SubmissionRow | null> {
  const rows = await drizzle(db)
    .update(submissions)
    .set({ status: "pending", claim: null, claimedAt: null })
    .where(and(eq(submissions.id, id), eq(submissions.status, "claimed"), eq(submissions.claim, claim)))
    .returning();
  return rows[0] ?? null;
}

/** The verdict stored for a run, or null. */
export async function runVerdict(db: D1Database, run: string | null): Promise<{ score: number; solved: boolean; json: string } | null> {
  if (run === null) return null;
  return (await drizzle(db).select().from(verdicts).where(eq(verdicts.runId, run)).limit(1))[0] ?? null;
}
