import type { MiddlewareHandler } from "hono";
import { safeEqual } from "../../../mechanics/kit/hmac.ts";

/**
 * Requires `Authorization: Bearer <admin token>` on the control plane.
 * Answers 401 with a JSON error naming what was wrong.
 */
export function adminAuth(getToken: (env: unknown) => string | undefined): MiddlewareHandler {
  return async (c, next) => {
    const expected = getToken(c.env);
    if (!expected) return c.json({ error: "control plane disabled: WIREBENCH_ADMIN_TOKEN is not set" }, 503);
    const header = c.req.header("authorization");
    if (!header) return c.json({ error: "missing Authorization header: send Bearer <admin token>" }, 401);
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match) return c.json({ error: "Authorization must use the Bearer scheme" }, 401);
    if (!safeEqual(match[1].trim(), expected)) return c.json({ error: "admin token is not valid" }, 401);
    await next();
  };
}
