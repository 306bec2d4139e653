import type { Context } from "hono";
import type { Env } from "../env.ts";
import { roleEntry } from "../../declarations/schema/role-name.ts";
import type { WorldRow } from "../grader/world-registry.ts";

export { roleStub } from "../world/role-stub.ts";

export type AppContext = Context<{ Bindings: Env }>;

/** The archived world (asked of the grader, which holds the archive), or null. */
export async function findWorld(env: Env, id: string): Promise<WorldRow | null> {
  return (await env.GRADER.findWorld(id)) as WorldRow | null;
}

/** Resolves `:world` and `:role`, or answers 404 naming which is unknown. */
export async function resolveRole(c: AppContext): Promise<{ world: string; role: string; vendor: string } | Response> {
  const world = c.req.param("world")!;
  const role = c.req.param("role")!;
  const row = await findWorld(c.env, world);
  if (!row) return c.json({ error: `unknown world "${world}"` }, 404);
  const vendor = roleEntry(row.roles, role);
  if (!vendor) return c.json({ error: `world "${world}" has no role "${role}" (roles: ${Object.keys(row.roles).join(", ")})` }, 404);
  return { world, role, vendor };
}

/** Origin vendor URLs are built on: the configured public URL, else the origin the control plane was reached at. */
export function publicOrigin(env: Env, requestUrl: string): string {
  return env.WIREBENCH_PUBLIC_URL ? new URL(env.WIREBENCH_PUBLIC_URL).origin : new URL(requestUrl).origin;
}
