import { resolveRole, roleStub, type AppContext } from "./world-lookup.ts";

/**
 * `GET /v1/worlds/:world/roles/:role/records`: every record as served, with
 * deletions (ground truth). A task world's truth is the operator's: a
 * participant (who can only hold task worlds) is refused, so the judges'
 * answer key never reaches the side that writes the connector.
 */
export async function worldRecords(c: AppContext): Promise<Response> {
  const target = await resolveRole(c);
  if (target instanceof Response) return target;
  if (c.var.principal.kind === "participant" && target.task !== null)
    return c.json({ error: "a task world's ground truth is the operator's; take a labelled snapshot instead (POST .../roles/:role/snapshots)" }, 403);
  return c.json(await roleStub(c.env, target.world, target.role).snapshot());
}
