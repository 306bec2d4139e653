import { findWorld, roleStub, visibleTo, type AppContext } from "./world-lookup.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** `GET /v1/worlds/:world`: release, lifecycle, and each live role's checkpoint, epoch, state hash and fired faults. */
export async function getWorld(c: AppContext): Promise<Response> {
  const id = c.req.param("world")!;
  const row = await findWorld(c.env, id);
  if (!row || !visibleTo(c.var.principal, row)) return c.json({ error: `unknown world "${id}"` }, 404);
  const head = {
    world: id,
    task: row.task,
    seed: row.seed,
    release: { id: row.release, declarationHash: row.declarationHash },
    createdAt: iso(row.createdAt),
    expiresAt: iso(row.expiresAt),
  };
  if (row.endedAt !== null) return c.json({ ...head, status: row.endReason ?? "ended", endedAt: iso(row.endedAt), roles: {} });
  const roles = Object.keys(row.roles);
  const statuses = await Promise.all(roles.map((role) => roleStub(c.env, id, role).status()));
  return c.json({ ...head, status: "ready", roles: Object.fromEntries(roles.map((role, i) => [role, statuses[i]])) });
}
