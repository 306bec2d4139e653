import type { Context } from "hono";
import type { Env } from "../env.ts";
import { roleEntry } from "../../declarations/schema/role-name.ts";
import type { WorldRow } from "../grader/world-registry.ts";
import type { Principal } from "../middleware/principal/principal.ts";

export { roleStub } from "../world/role-stub.ts";

export type AppContext = Context<{ Bindings: Env; Variables: { principal: Principal } }>;

/** The archived world (asked of the grader, which holds the archive), or null. */
export async function findWorld(env: Env, id: string): Promise<WorldRow | null> {
  return (await env.GRADER.findWorld(id)) as WorldRow | null;
}

/** Whether the caller may see a world: the operator sees all, a participant its own. */
export function visibleTo(principal: Principal, row: WorldRow): boolean {
  return principal.kind === "admin" || row.participant === principal.id;
}

/** Resolves `:world` for the caller: 404 when unknown or not theirs (never telling which), 410 once ended. */
export async function resolveWorld(c: AppContext): Promise<WorldRow | Response> {
  const world = c.req.param("world")!;
  const row = await findWorld(c.env, world);
  if (!row || !visibleTo(c.var.principal, row)) return c.json({ error: `unknown world "${world}"` }, 404);
  if (row.endedAt !== null) return c.json({ error: `world "${world}" has ended (${row.endReason}); its records and logs are gone` }, 410);
  return row;
}

/** Resolves `:world` and `:role`, or answers naming which is unknown. */
export async function resolveRole(c: AppContext): Promise<{ world: string; role: string; vendor: string; task: string | null } | Response> {
  const row = await resolveWorld(c);
  if (row instanceof Response) return row;
  const role = c.req.param("role")!;
  const vendor = roleEntry(row.roles, role);
  if (!vendor) return c.json({ error: `world "${row.id}" has no role "${role}" (roles: ${Object.keys(row.roles).join(", ")})` }, 404);
  return { world: row.id, role, vendor, task: row.task };
}

/** Origin vendor URLs are built on: the configured public URL, else the origin the control plane was reached at. */
export function publicOrigin(env: Env, requestUrl: string): string {
  return env.WIREBENCH_PUBLIC_URL ? new URL(env.WIREBENCH_PUBLIC_URL).origin : new URL(requestUrl).origin;
}
