/**
 * @module admin-auth
 * Requires `Authorization: Bearer <admin token>` on the control plane, and
 * fails closed: a farm reached off loopback whose token is missing or is the
 * published development one refuses every call with 503 and logs why.
 */
import type { MiddlewareHandler } from "hono";
import { safeEqual } from "../../../mechanics/kit/hmac.ts";
import { DEV_ADMIN_TOKEN, isLoopbackHost } from "./dev-token.ts";

/** Why the control plane must stay shut for this request, or null when it may open. */
function closedBecause(expected: string | undefined, hostname: string): string | null {
  if (isLoopbackHost(hostname)) return expected ? null : "WIREBENCH_ADMIN_TOKEN is not set";
  if (!expected) return "WIREBENCH_ADMIN_TOKEN is not set (set it with `wrangler secret put WIREBENCH_ADMIN_TOKEN`)";
  if (safeEqual(expected, DEV_ADMIN_TOKEN)) return "WIREBENCH_ADMIN_TOKEN is the published development token; a farm off loopback needs its own secret";
  return null;
}

/** The middleware; `getToken` reads the configured admin token from the bindings. */
export function adminAuth(getToken: (env: unknown) => string | undefined): MiddlewareHandler {
  return async (c, next) => {
    const expected = getToken(c.env);
    const closed = closedBecause(expected, new URL(c.req.url).hostname);
    if (closed) {
      console.error(`control plane refused: ${closed}`);
      return c.json({ error: `control plane disabled: ${closed}` }, 503);
    }
    const header = c.req.header("authorization");
    if (!header) return c.json({ error: "missing Authorization header: send Bearer <admin token>" }, 401);
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match) return c.json({ error: "Authorization must use the Bearer scheme" }, 401);
    if (!safeEqual(match[1].trim(), expected!)) return c.json({ error: "admin token is not valid" }, 401);
    await next();
  };
}
