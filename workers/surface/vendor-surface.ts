import type { AppContext } from "../control/world-lookup.ts";
import { roleStub } from "../control/world-lookup.ts";
import { ROLE_NAME } from "../../declarations/schema/role-name.ts";
import { toVendorCall } from "./vendor-call.ts";
import { worldExists } from "./known-worlds.ts";
import { answerResponse } from "./vendor-answer.ts";
import { isWorldId } from "../world/world-id.ts";

/** `ALL /w/:world/:role/*`: hands the request to the role's Durable Object. */
export async function vendorSurface(c: AppContext): Promise<Response> {
  const world = c.req.param("world")!;
  const role = c.req.param("role")!;
  const url = new URL(c.req.url);
  const pathname = url.pathname;
  const prefix = `/w/${world}/${role}`;
  const path = pathname.slice(prefix.length) || "/";
  if (!isWorldId(world) || !ROLE_NAME.test(role) || path.startsWith("/_wb/") || path === "/_wb") {
    return c.json({ error: "not found" }, 404);
  }
  // The request arrived now: the Worker answers on the host's clock, as it does its headers.
  if (!(await worldExists(c.env, world, Date.now()))) return c.json({ error: "not found" }, 404);
  if (path === "/_docs") return c.redirect(`${prefix}/_docs/`, 301);
  if (path.startsWith("/_docs/")) {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return c.json({ error: "documentation is read-only" }, 405);
    return roleStub(c.env, world, role).serveDocs(path.slice("/_docs".length), c.req.url);
  }
  const call = await toVendorCall(c.req.raw, path, url.origin);
  return answerResponse(await roleStub(c.env, world, role).serveVendor(call));
}
