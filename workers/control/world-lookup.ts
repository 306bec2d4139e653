import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { Context } from "hono";
import { worlds } from "../db/schema.ts";
import type { Env } from "../env.ts";
import { roleEntry } from "../../declarations/schema/role-name.ts";

export type AppContext = Context<{ Bindings: Env }>;

/** The world row, or null. */
export async function findWorld(env: Env, id: string) {
  const rows = await drizzle(env.DB).select().from(worlds).where(eq(worlds.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Stub of a role's Durable Object. */
export function roleStub(env: Env, world: string, role: string) {
  return env.WORLD.get(env.WORLD.idFromName(`${world}/${role}`));
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
