import { findVendor } from "../../declarations/vendors/index.ts";
import { RELEASE_ID } from "../../declarations/release.ts";
import { credentialEnvNames, randomToken } from "../engine/auth/credentials.ts";
import { readJson } from "./read-json.ts";
import { createWorldSchema } from "./schemas.ts";
import { findWorld, publicOrigin, roleStub, visibleTo, type AppContext } from "./world-lookup.ts";
import { MAX_ROLES_PER_WORLD, roleEntry } from "../../declarations/schema/role-name.ts";
import { seededRecordBound } from "../engine/data/record-bound.ts";
import { rememberWorld } from "../surface/known-worlds.ts";
import type { WorldPlan } from "../db/schema.ts";
import { declarationHash } from "./declaration-hash.ts";
import { formatWorldId, worldIdOf } from "../world/world-id.ts";
import { reserveWorld } from "./world-quota.ts";
import type { WorldRow } from "../grader/world-registry.ts";
import { webhookTargetRefusal } from "./webhook-target-policy.ts";

/** Most records one world may seed (over all roles): a bound on what one call can make the farm build. */
export const MAX_SEEDED_RECORDS_PER_WORLD = 150_000;

/** Lifetime of a world when nothing says otherwise. */
const DEFAULT_TTL_S = 86_400;

/** A world to seed: what it serves, and where its webhooks go. */
interface Seeding extends WorldPlan {
  task: string | null;
  seed: number;
  webhookTargets: Record<string, string>;
  relay: boolean;
  ttlSeconds?: number;
}

/**
 * `POST /v1/worlds`: seeds one Durable Object per role and returns how to
 * reach each. A body names a task, bare vendors (operator only), or an
 * earlier world to reproduce (same release, task, seed and checkpoints).
 */
export async function createWorld(c: AppContext): Promise<Response> {
  const body = await readJson(c, createWorldSchema);
  if (body instanceof Response) return body;
  const principal = c.var.principal;
  const hash = await declarationHash();
  let plan: Seeding;
  if ("reproduce" in body) {
    const id = worldIdOf(body.reproduce);
    if (!id) return c.json({ error: `reproduce: "${body.reproduce}" names no world (give a world id or a URL of one)` }, 400);
    const original = await findWorld(c.env, id);
    if (!original || !visibleTo(principal, original)) return c.json({ error: `reproduce: unknown world "${id}"` }, 404);
    if (original.release !== RELEASE_ID || original.declarationHash !== hash) {
      return c.json(
        {
          error: `reproduce: world "${id}" was seeded by release ${original.release} (declarations ${original.declarationHash.slice(0, 12) || "unknown"}); this farm serves release ${RELEASE_ID} (declarations ${hash.slice(0, 12)})`,
          world: { release: original.release, declarationHash: original.declarationHash },
          farm: { release: RELEASE_ID, declarationHash: hash },
        },
        409,
      );
    }
    if (!original.plan) return c.json({ error: `reproduce: world "${id}" was archived before seeding plans were kept` }, 409);
    plan = { ...original.plan, task: original.task, seed: original.seed, webhookTargets: body.webhookTargets, relay: body.relay, ttlSeconds: body.ttlSeconds };
  } else if ("task" in body) {
    const task = await c.env.GRADER.taskPlan(body.task, principal.kind === "participant");
    if (!task) return c.json({ error: `unknown task "${body.task}"` }, 404);
    plan = {
      task: task.task,
      seed: body.seed ?? task.seed,
      roles: task.roles,
      docsProfile: task.docsProfile,
      rateLimits: true,
      webhookTargets: body.webhookTargets,
      relay: body.relay,
      ttlSeconds: body.ttlSeconds,
    };
  } else {
    if (principal.kind === "participant") return c.json({ error: "participants create worlds of public tasks (give a task or a world to reproduce)" }, 403);
    const roles = Object.fromEntries(Object.entries(body.vendors).map(([role, vendor]) => [role, { vendor, checkpoint: body.checkpoint, scale: body.scale }]));
    plan = { task: null, seed: body.seed, roles, docsProfile: body.docsProfile, rateLimits: body.rateLimits, webhookTargets: body.webhookTargets, relay: body.relay, ttlSeconds: body.ttlSeconds };
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
  for (const [role, url] of Object.entries(plan.webhookTargets)) {
    if (roleEntry(plan.roles, role) === undefined) return c.json({ error: `webhookTargets: no role "${role}"` }, 400);
    const refused = webhookTargetRefusal(principal, url, plan.relay);
    if (refused) return c.json({ error: `webhookTargets.${role}: ${refused}` }, 400);
  }

  const now = Date.now();
  let ttlS = plan.ttlSeconds ?? DEFAULT_TTL_S;
  if (principal.kind === "participant") ttlS = Math.min(plan.ttlSeconds ?? principal.quota.worldTtlS, principal.quota.worldTtlS);
  const expiresAt = now + ttlS * 1000;
  const origin = publicOrigin(c.env, c.req.url);
  const world = formatWorldId({ release: RELEASE_ID, task: plan.task, seed: plan.seed, random: randomToken(8) });
  const roles = Object.entries(plan.roles);
  // The archive's row comes first: for a participant it is the quota's reservation.
  const row: WorldRow = {
    id: world,
    task: plan.task,
    seed: plan.seed,
    roles: Object.fromEntries(roles.map(([role, r]) => [role, r.vendor])),
    createdAt: now,
    release: RELEASE_ID,
    declarationHash: hash,
    plan: { roles: plan.roles, docsProfile: plan.docsProfile, rateLimits: plan.rateLimits },
    participant: principal.kind === "participant" ? principal.id : null,
    expiresAt,
    endedAt: null,
    endReason: null,
    sealedRun: null,
  };
  if (principal.kind === "participant") {
    const refused = await reserveWorld(c, principal, row);
    if (refused) return refused;
  } else await c.env.GRADER.recordWorld(row);
  let inits: Awaited<ReturnType<ReturnType<typeof roleStub>["init"]>>[];
  try {
    inits = await Promise.all(
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
          expiresAtMs: expiresAt,
          requestQuota: principal.kind === "participant" ? principal.quota.requestsPerWorld : null,
        }),
      ),
    );
  } catch (err) {
    await Promise.allSettled(roles.map(([role]) => roleStub(c.env, world, role).end("deleted")));
    await c.env.GRADER.dropWorld(world);
    throw err;
  }
  rememberWorld(world, expiresAt);

  const vendors: Record<string, unknown> = {};
  roles.forEach(([role, { vendor: vendorId }], i) => {
    const vendor = findVendor(vendorId)!;
    const baseUrl = `${origin}/w/${world}/${role}`;
    const names = credentialEnvNames(vendor.envPrefix, vendor.auth);
    const env: Record<string, string> = { [`${vendor.envPrefix}_BASE_URL`]: baseUrl, [`${vendor.envPrefix}_DOCS_URL`]: `${baseUrl}/_docs/` };
    for (const [name, value] of Object.entries(inits[i].credentials)) env[names[name]] = value;
    vendors[role] = { vendor: vendorId, baseUrl, docsUrl: `${baseUrl}/_docs/`, credentials: inits[i].credentials, env, stateHash: inits[i].status.stateHash };
  });
  return c.json({ world, task: plan.task, seed: plan.seed, release: { id: RELEASE_ID, declarationHash: hash }, expiresAt: new Date(expiresAt).toISOString(), vendors }, 201);
}
