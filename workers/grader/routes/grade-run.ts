import { asc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { findVendor } from "../../../declarations/vendors/index.ts";
import { findTask } from "../../../declarations/tasks/index.ts";
import { evidence, runs, verdicts } from "../../db/schema.ts";
import { gradeRun } from "../../grading/grade-run.ts";
import type { ScenarioEvidence, Verdict } from "../../../evidence/verdict.ts";
import type { GraderContext } from "../context.ts";
import { callerOf, owns } from "../caller.ts";

/** The run, if it exists and the caller may see it. */
async function visibleRun(c: GraderContext, id: string) {
  const caller = callerOf(c);
  const run = (await drizzle(c.env.DB).select().from(runs).where(eq(runs.id, id)).limit(1))[0];
  return caller && run && owns(caller, run.participant) ? { caller, run } : null;
}

/**
 * `POST /v1/runs/:run/grade[?reference=self]`: judges the archived evidence
 * and stores the verdict. `reference=self` scores the run against its own
 * checks (how gold's manifest is made); otherwise the task's gold manifest.
 */
export async function gradeRunRoute(c: GraderContext): Promise<Response> {
  const id = c.req.param("run")!;
  const db = drizzle(c.env.DB);
  const found = await visibleRun(c, id);
  if (!found) return c.json({ error: `unknown run "${id}"` }, 404);
  const { caller, run } = found;
  const entry = findTask(run.task);
  if (!entry) return c.json({ error: `run ${id} is of unknown task "${run.task}"` }, 409);
  const self = c.req.query("reference") === "self";
  if (self && caller.kind !== "admin") return c.json({ error: "reference=self (making a gold manifest) is for the operator" }, 403);
  if (!self && !entry.gold) return c.json({ error: `task ${run.task} has no gold manifest yet; run wirebench validate --write-gold` }, 409);
  const scenarios = await loadEvidence(c, id);
  const vendors = Object.fromEntries(Object.entries(entry.task.roles).map(([role, r]) => [role, findVendor(r.vendor)!]));
  const verdict = gradeRun(
    entry.task,
    vendors,
    { runId: id, task: run.task, seed: run.seed, scenarios, error: run.error as Verdict["error"], selfReported: run.selfReported },
    self ? null : entry.gold,
  );
  await db
    .insert(verdicts)
    .values({ runId: id, score: verdict.score, solved: verdict.solved, json: JSON.stringify(verdict), gradedAt: Date.now() })
    .onConflictDoUpdate({ target: verdicts.runId, set: { score: verdict.score, solved: verdict.solved, json: JSON.stringify(verdict), gradedAt: Date.now() } });
  return c.json(verdict);
}

/** A sealed run's scenarios, joined from their stored parts. */
async function loadEvidence(c: GraderContext, id: string): Promise<ScenarioEvidence[]> {
  const parts = await drizzle(c.env.DB).select().from(evidence).where(eq(evidence.runId, id)).orderBy(asc(evidence.position), asc(evidence.part));
  const texts = new Map<number, string[]>();
  for (const r of parts) texts.set(r.position, [...(texts.get(r.position) ?? []), r.json]);
  return [...texts.values()].map((t) => JSON.parse(t.join("")) as ScenarioEvidence);
}

/**
 * `GET /v1/runs/:run/evidence`: the sealed run as the grader reads it, so a
 * verdict can be re-derived offline (`wirebench regrade`) from a bundle alone.
 */
export async function getRunEvidence(c: GraderContext): Promise<Response> {
  const id = c.req.param("run")!;
  const found = await visibleRun(c, id);
  if (!found) return c.json({ error: `unknown run "${id}"` }, 404);
  const { run } = found;
  return c.json({ runId: id, task: run.task, seed: run.seed, error: run.error, selfReported: run.selfReported, scenarios: await loadEvidence(c, id) });
}

/** `GET /v1/runs/:run`: the run and its latest verdict. */
export async function getRun(c: GraderContext): Promise<Response> {
  const id = c.req.param("run")!;
  const db = drizzle(c.env.DB);
  const found = await visibleRun(c, id);
  if (!found) return c.json({ error: `unknown run "${id}"` }, 404);
  const { run } = found;
  const v = (await db.select().from(verdicts).where(eq(verdicts.runId, id)).limit(1))[0];
  return c.json({ run, verdict: v ? JSON.parse(v.json) : null });
}
