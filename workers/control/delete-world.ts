import { forgetWorld } from "../surface/known-worlds.ts";
import { resolveWorld, roleStub, type AppContext } from "./world-lookup.ts";

/** `DELETE /v1/worlds/:world`: ends a world now; its objects delete their storage, sealed runs stay. */
export async function deleteWorld(c: AppContext): Promise<Response> {
  const row = await resolveWorld(c);
  if (row instanceof Response) return row;
  forgetWorld(row.id);
  await Promise.all(Object.keys(row.roles).map((role) => roleStub(c.env, row.id, role).end("deleted")));
  await c.env.GRADER.endWorld(row.id, "deleted", Date.now());
  return c.json({ world: row.id, status: "deleted" });
}
