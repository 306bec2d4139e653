import { readJson } from "./read-json.ts";
import { SnapshotBody } from "./schemas.ts";
import { MAX_SNAPSHOTS_PER_EPOCH } from "../world/snapshot-store.ts";
import { resolveRole, roleStub, type AppContext } from "./world-lookup.ts";

/**
 * `POST /v1/worlds/:world/roles/:role/snapshots {label}`: the role's object
 * takes its ground truth now and keeps it under the label in the current
 * epoch, for the run that seals this epoch. The answer is a receipt (label,
 * epoch, checkpoint, record count), never the records.
 */
export async function takeRoleSnapshot(c: AppContext): Promise<Response> {
  const target = await resolveRole(c);
  if (target instanceof Response) return target;
  const body = await readJson(c, SnapshotBody);
  if (body instanceof Response) return body;
  const receipt = await roleStub(c.env, target.world, target.role).labelSnapshot(body.label);
  if (!receipt) return c.json({ error: `label: this epoch already holds ${MAX_SNAPSHOTS_PER_EPOCH} labelled snapshots` }, 409);
  return c.json({ world: target.world, role: target.role, ...receipt }, 201);
}
