import { findVendor } from "../../declarations/vendors/index.ts";
import { readJson } from "./read-json.ts";
import { RecreateBody } from "./schemas.ts";
import { resolveRole, roleStub, type AppContext } from "./world-lookup.ts";

/** `POST /v1/worlds/:world/roles/:role/recreate`: reset to a checkpoint and open a new epoch. */
export async function recreateRole(c: AppContext): Promise<Response> {
  const target = await resolveRole(c);
  if (target instanceof Response) return target;
  const body = await readJson(c, RecreateBody);
  if (body instanceof Response) return body;
  const last = findVendor(target.vendor)!.timeline.at(-1)?.checkpoint ?? 0;
  if (body.checkpoint > last) return c.json({ error: `checkpoint: ${target.vendor} has checkpoints 0 to ${last}` }, 400);
  const status = await roleStub(c.env, target.world, target.role).recreate(body.checkpoint);
  return c.json({ world: target.world, role: target.role, ...status });
}
