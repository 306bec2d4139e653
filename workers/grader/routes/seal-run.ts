import { drizzle } from "drizzle-orm/d1";
import { z } from "zod";
import { findTask } from "../../../declarations/tasks/index.ts";
import { randomToken } from "../../engine/auth/credentials.ts";
import { evidence, runs } from "../../db/schema.ts";
import type { ScenarioEvidence } from "../../../declarations/evidence/verdict.ts";
import { readJson } from "../../control/read-json.ts";
import { roleStub } from "../../world/role-stub.ts";
import { ROLE_NAME, roleEntry } from "../../../declarations/schema/role-name.ts";
import type { GraderContext } from "../context.ts";
import { findWorldRow } from "../world-registry.ts";
import { callerOf, owns } from "../caller.ts";

/** Characters per evidence row: D1 caps a value at 2 MB, and a character may take up to three bytes. */
const EVIDENCE_PART = 500_000;

/** What the harness sends: everything it saw in Node; the Worker adds the vendor logs. */
const SealBody = z.strictObject({
  world: z.string(),
  task: z.string(),
  seed: z.number().int().min(0),
  error: z
    .object({ class: z.enum(["candidate_setup_failure", "benchmark_infrastructure_failure", "benchmark_verifier_failure"]), message: z.string() })
    .nullable()
    .default(null),
  scenarios: z
    .array(
      z.object({
        name: z.string().max(200),
        epochs: z.record(z.string().regex(ROLE_NAME, "roles are lower-case words"), z.array(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)).max(256)),
        runs: z.array(z.any()),
        snapshots: z.record(z.string(), z.record(z.string(), z.any())),
        notes: z.record(z.string(), z.unknown()).default({}),
      }),
    )
    .max(64),
});

/**
 * `POST /v1/runs`: seals a run. The vendor logs of every epoch each scenario
 * used are copied from the world's Durable Objects into D1 beside the
 * harness's evidence, so the run can be graded (and re-graded) from D1 alone.
 */
export async function sealRun(c: GraderContext): Promise<Response> {
  const body = await readJson(c, SealBody);
  if (body instanceof Response) return body;
  if (!findTask(body.task)) return c.json({ error: `unknown task "${body.task}"` }, 404);
  const caller = callerOf(c);
  if (!caller) return c.json({ error: "no caller: the grader is reached through the farm" }, 401);
  const world = await findWorldRow(c.env.DB, body.world);
  if (!world || !owns(caller, world.participant)) return c.json({ error: `unknown world "${body.world}"` }, 404);
  if (world.endedAt !== null) return c.json({ error: `world "${body.world}" has ended (${world.endReason}); its logs are gone` }, 410);
  const runId = `run_${randomToken(8)}`;
  /** Roles whose log lost requests outright: the evidence is incomplete, so the run is an infrastructure failure, never a clean grade. */
  const lost: { role: string; count: number }[] = [];
  const rows: { runId: string; position: number; part: number; scenario: string; json: string }[] = [];
  for (const [position, s] of body.scenarios.entries()) {
    const e: ScenarioEvidence = { ...s, requests: {}, tokens: {}, webhooks: {}, secrets: {} };
    for (const [role, epochs] of Object.entries(s.epochs)) {
      if (roleEntry(world.roles, role) === undefined) return c.json({ error: `scenarios[${position}].epochs: world has no role "${role}"` }, 400);
      const stub = roleStub(c.env, body.world, role);
      e.requests[role] = (await Promise.all(epochs.map((ep) => stub.requestLog(ep)))).flat();
      e.tokens[role] = (await Promise.all(epochs.map((ep) => stub.tokenLog(ep)))).flat();
      e.webhooks[role] = (await Promise.all(epochs.map((ep) => stub.webhookLog(ep)))).flat();
      e.secrets[role] = await stub.secrets();
      const unlogged = (await Promise.all(epochs.map((ep) => stub.unloggedRequests(ep)))).reduce((a, b) => a + b, 0);
      if (unlogged > 0 && !lost.some((l) => l.role === role)) lost.push({ role, count: unlogged });
    }
    const text = JSON.stringify(e);
    for (let part = 0; part === 0 || part * EVIDENCE_PART < text.length; part++) {
      rows.push({ runId, position, part, scenario: s.name, json: text.slice(part * EVIDENCE_PART, (part + 1) * EVIDENCE_PART) });
    }
  }
  const db = drizzle(c.env.DB);
  const error =
    body.error ??
    (lost.length ? { class: "benchmark_infrastructure_failure" as const, message: `the farm could not log ${lost.map((l) => `${l.count} requests of role ${l.role}`).join(", ")}` } : null);
  await db.insert(runs).values({ id: runId, task: body.task, seed: body.seed, world: body.world, participant: world.participant, error, createdAt: Date.now() });
  for (const row of rows) await db.insert(evidence).values(row);
  return c.json({ run: runId, scenarios: rows.length }, 201);
}
