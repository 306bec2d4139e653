import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { findTask } from "../../../declarations/tasks/index.ts";
import { randomToken } from "../../engine/auth/credentials.ts";
import { evidence, runs } from "../../db/schema.ts";
import type { ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import { readJson } from "../../control/read-json.ts";
import { roleStub } from "../../world/role-stub.ts";
import { roleEntry } from "../../../declarations/schema/role-name.ts";
import type { GraderContext } from "../context.ts";
import { claimSeal, findWorldRow, releaseSeal } from "../world-registry.ts";
import { callerOf, owns } from "../caller.ts";
import { SealBody } from "../seal-body.ts";
import { epochRefusal, scenarioRefusal, taskRefusal } from "../seal-binding.ts";

/** Characters per evidence row: D1 caps a value at 2 MB, and a character may take up to three bytes. */
const EVIDENCE_PART = 500_000;

/**
 * `POST /v1/runs`: seals a run of a task's world, once. The run takes the
 * world's task and seed; each role's epochs over the scenarios must be the
 * ones its recreates opened. The vendor logs and the labelled snapshots the
 * farm took in those epochs are copied from the world's Durable Objects into
 * D1 beside the harness's runs and notes, so the run can be graded (and
 * re-graded) from D1 alone. A participant's run is self-reported: its
 * connector ran in the participant's own harness.
 */
export async function sealRun(c: GraderContext): Promise<Response> {
  const body = await readJson(c, SealBody);
  if (body instanceof Response) return body;
  const caller = callerOf(c);
  if (!caller) return c.json({ error: "no caller: the grader is reached through the farm" }, 401);
  const world = await findWorldRow(c.env.DB, body.world);
  if (!world || !owns(caller, world.participant)) return c.json({ error: `unknown world "${body.world}"` }, 404);
  if (world.endedAt !== null) return c.json({ error: `world "${body.world}" has ended (${world.endReason}); its logs are gone` }, 410);
  if (body.error !== null && caller.kind !== "admin") return c.json({ error: "error: error classes are set by the operator; a participant's seal carries none" }, 403);
  const bound = taskRefusal(world, body);
  if (bound) return c.json({ error: bound.error }, bound.status);
  const entry = findTask(world.task!);
  if (!entry) return c.json({ error: `world "${world.id}" is of unknown task "${world.task}"` }, 409);
  const named = scenarioRefusal(entry.task, body);
  if (named) return c.json({ error: named.error }, named.status);
  for (const [position, s] of body.scenarios.entries())
    for (const role of Object.keys(s.epochs)) if (roleEntry(world.roles, role) === undefined) return c.json({ error: `scenarios[${position}].epochs: world has no role "${role}"` }, 400);
  const opened = Object.fromEntries(await Promise.all(Object.keys(world.roles).map(async (role) => [role, await roleStub(c.env, world.id, role).currentEpoch()] as const)));
  const epochs = epochRefusal(body, opened);
  if (epochs) return c.json({ error: epochs.error }, epochs.status);
  if (world.sealedRun !== null) return c.json({ error: `world "${world.id}" is already sealed (run ${world.sealedRun})` }, 409);

  const runId = `run_${randomToken(8)}`;
  /** Roles whose log lost requests outright: the evidence is incomplete, so the run is an infrastructure failure, never a clean grade. */
  const lost: { role: string; count: number }[] = [];
  const rows: { runId: string; position: number; part: number; scenario: string; json: string }[] = [];
  for (const [position, s] of body.scenarios.entries()) {
    const e: ScenarioEvidence = { name: s.name, epochs: s.epochs, runs: s.runs, snapshots: {}, notes: s.notes, requests: {}, tokens: {}, webhooks: {}, secrets: {} };
    for (const [role, used] of Object.entries(s.epochs)) {
      const stub = roleStub(c.env, world.id, role);
      e.requests[role] = (await Promise.all(used.map((ep) => stub.requestLog(ep)))).flat();
      e.tokens[role] = (await Promise.all(used.map((ep) => stub.tokenLog(ep)))).flat();
      e.webhooks[role] = (await Promise.all(used.map((ep) => stub.webhookLog(ep)))).flat();
      e.secrets[role] = await stub.secrets();
      for (const [label, json] of Object.entries(await stub.labelledSnapshots(used))) (e.snapshots[label] ??= {})[role] = JSON.parse(json) as Snapshot;
      const unlogged = (await Promise.all(used.map((ep) => stub.unloggedRequests(ep)))).reduce((a, b) => a + b, 0);
      if (unlogged > 0 && !lost.some((l) => l.role === role)) lost.push({ role, count: unlogged });
    }
    const text = JSON.stringify(e);
    for (let part = 0; part === 0 || part * EVIDENCE_PART < text.length; part++) {
      rows.push({ runId, position, part, scenario: s.name, json: text.slice(part * EVIDENCE_PART, (part + 1) * EVIDENCE_PART) });
    }
  }
  if (!(await claimSeal(c.env.DB, world.id, runId))) return c.json({ error: `world "${world.id}" is already sealed` }, 409);
  const db = drizzle(c.env.DB);
  const error =
    body.error ??
    (lost.length ? { class: "benchmark_infrastructure_failure" as const, message: `the farm could not log ${lost.map((l) => `${l.count} requests of role ${l.role}`).join(", ")}` } : null);
  try {
    await db
      .insert(runs)
      .values({ id: runId, task: world.task!, seed: world.seed, world: world.id, participant: world.participant, error, createdAt: Date.now(), selfReported: caller.kind === "participant" });
    for (const row of rows) await db.insert(evidence).values(row);
  } catch (err) {
    await db.delete(evidence).where(eq(evidence.runId, runId));
    await db.delete(runs).where(and(eq(runs.id, runId), eq(runs.world, world.id)));
    await releaseSeal(c.env.DB, world.id, runId);
    throw err;
  }
  return c.json({ run: runId, scenarios: rows.length }, 201);
}
