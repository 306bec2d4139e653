/**
 * @module grader
 * The grading Worker: the only script with the archive (D1) and the judges.
 * It is reached only through the farm's service binding, which has already
 * authenticated the caller; it has no public route of its own. Over HTTP it
 * serves the run endpoints the farm forwards; over RPC it answers the farm's
 * questions about tasks and worlds.
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import { Hono } from "hono";
import type { GraderEnv } from "./env.ts";
import { getRun, getRunEvidence, gradeRunRoute } from "./routes/grade-run.ts";
import { sealRun } from "./routes/seal-run.ts";
import { createParticipant } from "./routes/participants.ts";
import { isPublicTask, listTasks } from "./routes/tasks.ts";
import { claimSubmission } from "./routes/submissions/claim.ts";
import { createSubmission } from "./routes/submissions/create.ts";
import { getSubmissionRoute } from "./routes/submissions/get.ts";
import { listSubmissionsRoute } from "./routes/submissions/list.ts";
import { releaseSubmission } from "./routes/submissions/release.ts";
import { submissionResult } from "./routes/submissions/result.ts";
import { participantByKeyHash } from "./participants.ts";
import type { Principal } from "../middleware/principal/principal.ts";
import { type TaskPlan, taskPlan } from "./task-plan.ts";
import { dropWorldRow, type EndReason, endWorldRow, findWorldRow, insertWorldRow, reserveWorldRow, type WorldLimits, type WorldRow, type WorldUse, worldUse } from "./world-registry.ts";

function buildApp(): Hono<{ Bindings: GraderEnv }> {
  const app = new Hono<{ Bindings: GraderEnv }>();
  app.get("/v1/tasks", listTasks);
  app.post("/v1/participants", createParticipant);
  app.post("/v1/runs", sealRun);
  app.post("/v1/runs/:run/grade", gradeRunRoute);
  app.get("/v1/runs/:run", getRun);
  app.get("/v1/runs/:run/evidence", getRunEvidence);
  app.post("/v1/submissions", createSubmission);
  app.get("/v1/submissions", listSubmissionsRoute);
  app.post("/v1/submissions/claim", claimSubmission);
  app.get("/v1/submissions/:id", getSubmissionRoute);
  app.post("/v1/submissions/:id/result", submissionResult);
  app.post("/v1/submissions/:id/release", releaseSubmission);
  app.notFound((c) => c.json({ error: `no route for ${c.req.method} ${new URL(c.req.url).pathname}` }, 404));
  app.onError((err, c) => {
    console.error("grader error", err);
    return c.json({ error: "internal error" }, 500);
  });
  return app;
}

const app = buildApp();

export default class Grader extends WorkerEntrypoint<GraderEnv> {
  override fetch(request: Request): Response | Promise<Response> {
    return app.fetch(request, this.env, this.ctx);
  }

  /** What seeding a task's world needs, or null for an unknown task; `publicOnly` hides tasks participants may not use. */
  taskPlan(task: string, publicOnly = false): TaskPlan | null {
    if (publicOnly && !isPublicTask(task)) return null;
    return taskPlan(task);
  }

  /** The participant holding a key, by the key's hash, or null. */
  participantByKeyHash(hash: string): Promise<Extract<Principal, { kind: "participant" }> | null> {
    return participantByKeyHash(this.env.DB, hash);
  }

  /** A participant's world counts now, for its quotas. */
  worldUse(participant: string, nowMs: number): Promise<WorldUse> {
    return worldUse(this.env.DB, participant, nowMs);
  }

  /** Marks a world ended. */
  endWorld(id: string, reason: EndReason, atMs: number): Promise<void> {
    return endWorldRow(this.env.DB, id, reason, atMs);
  }

  /** The archived world, or null. */
  findWorld(id: string): Promise<WorldRow | null> {
    return findWorldRow(this.env.DB, id);
  }

  /** Archives a world the farm is about to seed (the operator's). */
  recordWorld(row: WorldRow): Promise<void> {
    return insertWorldRow(this.env.DB, row);
  }

  /** Archives a participant's world only while its quotas allow it (atomically); false when they do not. */
  reserveWorld(row: WorldRow, limits: WorldLimits): Promise<boolean> {
    return reserveWorldRow(this.env.DB, row, limits);
  }

  /** Forgets a world whose seeding failed. */
  dropWorld(id: string): Promise<void> {
    return dropWorldRow(this.env.DB, id);
  }
}
