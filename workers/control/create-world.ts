import { findVendor } from "../../declarations/vendors/index.ts";
import { credentialEnvNames, randomToken } from "../engine/auth/credentials.ts";
import { readJson } from "./read-json.ts";
import { createWorldSchema } from "./schemas.ts";
import { publicOrigin, roleStub, type AppContext } from "./world-lookup.ts";
import { MAX_ROLES_PER_WORLD, roleEntry } from "../../declarations/schema/role-name.ts";
import { seededRecordBound } from "../engine/data/record-bound.ts";
import { rememberWorld } from "../surface/known-worlds.ts";
import type { DocsProfile } from "../../declarations/schema/docs-profile.ts";

/** Most records one world may seed (over all roles): a bound on what one call can make the farm build. */
export const MAX_SEEDED_RECORDS_PER_WORLD = 150_000;

/** `POST /v1/worlds`: seeds one Durable Object per role and returns how to reach each. */
export async function createWorld(c: AppContext): Promise<Response> {
  const body = await readJson(c, createWorldSchema);
  if (body instanceof Response) return body;
  let plan: {
    task: string | null;
    seed: number;
    roles: Record<string, { vendor: string; checkpoint: number; scale: number }>;
    docsProfile: DocsProfile;
    rateLimits: boolean;
    webhookTargets: Record<string, string>;
    relay: boolean;
  };
  if ("task" in body) {
    const task = await c.env.GRADER.taskPlan(body.task);
    if (!task) return c.json({ error: `unknown task "${body.task}"` }, 404);
    plan = {
      task: task.task,
      seed: body.seed ?? task.seed,
      roles: task.roles,
      docsProfile: task.docsProfile,
      rateLimits: true,
      webhookTargets: body.webhookTargets,
      relay: body.relay,
    };
  } else {
    const roles = Object.fromEntries(Object.entries(body.vendors).map(([role, vendor]) => [role, { vendor, checkpoint: body.checkpoint, scale: body.scale }]));
    plan = { task: null, seed: body.seed, roles, docsProfile: body.docsProfile, rateLimits: body.rateLimits, webhookTargets: body.webhookTargets, relay: body.relay };
  }

  if (Object.keys(plan.roles).length > MAX_ROLES_PER_WORLD) return c.json({ error: `vendors: a world has at most ${MAX_ROLES_PER_WORLD} roles` }, 400);
  let records = 0;
  for (const [role, { vendor: vendorId, checkpoint, scale }] of Object.entries(plan.roles)) {
    const vendor = findVendor(vendorId);
    if (!vendor) return c.json({ error: `vendors.${role}: unknown vendor "${vendorId}"` }, 400);
    const last = vendor.timeline.at(-1)?.checkpoint ?? 0;
    if (checkpoint > last) return c.json({ error: `checkpoint: ${vendorId} has checkpoints 0 to ${last}` }, 400);
    records += seededRecordBound(vendor, scale);
  }
  if (records > MAX_SEEDED_RECORDS_PER_WORLD) {
    return c.json({ error: `scale: this world would seed up to ${records} records; a world may seed at most ${MAX_SEEDED_RECORDS_PER_WORLD}` }, 400);
  }

  for (const role of Object.keys(plan.webhookTargets)) if (roleEntry(plan.roles, role) === undefined) return c.json({ error: `webhookTargets: no role "${role}"` }, 400);
  const origin = publicOrigin(c.env, c.req.url);
  const world = `w_${randomToken(8)}`;
  const roles = Object.entries(plan.roles);
  const inits = await Promise.all(
    roles.map(([role, r]) =>
      roleStub(c.env, world, role).init({
        world,
        role,
        vendor: r.vendor,
        seed: plan.seed,
        task: plan.task,
        checkpoint: r.checkpoint,
        scale: r.scale,
        rateLimits: plan.rateLimits,
        docsProfile: plan.docsProfile,
        webhookTarget: roleEntry(plan.webhookTargets, role) ?? null,
        relay: plan.relay,
        publicOrigin: origin,
      }),
    ),
  );
  await c.env.GRADER.recordWorld({ id: world, task: plan.task, seed: plan.seed, roles: Object.fromEntries(roles.map(([role, r]) => [role, r.vendor])), createdAt: Date.now() });
  rememberWorld(world);

  const vendors: Record<string, unknown> = {};
  roles.forEach(([role, { vendor: vendorId }], i) => {
    const vendor = findVendor(vendorId)!;
    const baseUrl = `${origin}/w/${world}/${role}`;
    const names = credentialEnvNames(vendor.envPrefix, vendor.auth);
    const env: Record<string, string> = { [`${vendor.envPrefix}_BASE_URL`]: baseUrl, [`${vendor.envPrefix}_DOCS_URL`]: `${baseUrl}/_docs/` };
    for (const [name, value] of Object.entries(inits[i].credentials)) env[names[name]] = value;
    vendors[role] = { vendor: vendorId, baseUrl, docsUrl: `${baseUrl}/_docs/`, credentials: inits[i].credentials, env, stateHash: inits[i].status.stateHash };
  });
  return c.json({ world, task: plan.task, seed: plan.seed, vendors }, 201);
}
