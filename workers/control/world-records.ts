import { resolveRole, roleStub, type AppContext } from "./world-lookup.ts";

/** `GET /v1/worlds/:world/roles/:role/records`: every record as served, with deletions (ground truth). */
export async function worldRecords(c: AppContext): Promise<Response> {
  const target = await resolveRole(c);
  if (target instanceof Response) return target;
  return c.json(await roleStub(c.env, target.world, target.role).snapshot());
}
