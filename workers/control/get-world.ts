import { findWorld, roleStub, type AppContext } from "./world-lookup.ts";

/** `GET /v1/worlds/:world`: each role's checkpoint, epoch, state hash and fired faults. */
export async function getWorld(c: AppContext): Promise<Response> {
  const id = c.req.param("world")!;
  const row = await findWorld(c.env, id);
  if (!row) return c.json({ error: `unknown world "${id}"` }, 404);
  const roles = Object.keys(row.roles);
  const statuses = await Promise.all(roles.map((role) => roleStub(c.env, id, role).status()));
  return c.json({
    world: id,
    task: row.task,
    seed: row.seed,
    status: "ready",
    roles: Object.fromEntries(roles.map((role, i) => [role, statuses[i]])),
  });
}
