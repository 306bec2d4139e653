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
  if (body.faults.length !== new Set(body.faults).size) return c.json({ error: "faults: an id is listed twice" }, 400);
  if (body.checkpoint > last) return c.json({ error: `checkpoint: ${target.vendor} has checkpoints 0 to ${last}` }, 400);
  const vendor = findVendor(target.vendor)!;
  const unknown = body.faults.filter((id) => !vendor.faults.some((f) => f.id === id));
  if (unknown.length)
    return c.json({ error: `faults: ${target.vendor} declares no fault ${unknown.map((f) => `"${f}"`).join(", ")} (declared: ${vendor.faults.map((f) => f.id).join(", ") || "none"})` }, 400);
  const status = await roleStub(c.env, target.world, target.role).recreate(body.checkpoint, body.faults);
  return c.json({ world: target.world, role: target.role, ...status });
}
