import { drizzle } from "drizzle-orm/d1";
import { findVendor } from "../../declarations/vendors/index.ts";
import { credentialEnvNames, randomToken } from "../engine/auth/credentials.ts";
import { worlds } from "../db/schema.ts";
import { readJson } from "./read-json.ts";
import { createWorldSchema } from "./schemas.ts";
import { roleStub, vendorBaseUrl, type AppContext } from "./world-lookup.ts";

/** `POST /v1/worlds`: seeds one Durable Object per role and returns how to reach each. */
export async function createWorld(c: AppContext): Promise<Response> {
  const body = await readJson(c, createWorldSchema);
  if (body instanceof Response) return body;
  if ("task" in body) return c.json({ error: `unknown task "${body.task}"` }, 404);

  for (const [role, vendorId] of Object.entries(body.vendors)) {
    const vendor = findVendor(vendorId);
    if (!vendor) return c.json({ error: `vendors.${role}: unknown vendor "${vendorId}"` }, 400);
    const last = vendor.timeline.at(-1)?.checkpoint ?? 0;
    if (body.checkpoint > last) return c.json({ error: `checkpoint: ${vendorId} has checkpoints 0 to ${last}` }, 400);
  }

  const world = `w_${randomToken(8)}`;
  const roles = Object.entries(body.vendors);
  const inits = await Promise.all(
    roles.map(([role, vendor]) => roleStub(c.env, world, role).init({ world, role, vendor, seed: body.seed, task: null, checkpoint: body.checkpoint, scale: body.scale, rateLimits: body.rateLimits, docsProfile: body.docsProfile })),
  );
  await drizzle(c.env.DB).insert(worlds).values({ id: world, task: null, seed: body.seed, roles: body.vendors, createdAt: Date.now() });

  const vendors: Record<string, unknown> = {};
  roles.forEach(([role, vendorId], i) => {
    const vendor = findVendor(vendorId)!;
    const baseUrl = vendorBaseUrl(c.req.url, world, role);
    const names = credentialEnvNames(vendor.envPrefix, vendor.auth);
    const env: Record<string, string> = { [`${vendor.envPrefix}_BASE_URL`]: baseUrl, [`${vendor.envPrefix}_DOCS_URL`]: `${baseUrl}/_docs/` };
    for (const [name, value] of Object.entries(inits[i].credentials)) env[names[name]] = value;
    vendors[role] = { vendor: vendorId, baseUrl, docsUrl: `${baseUrl}/_docs/`, credentials: inits[i].credentials, env, stateHash: inits[i].status.stateHash };
  });
  return c.json({ world, seed: body.seed, vendors }, 201);
}
