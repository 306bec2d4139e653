/**
 * @module principal
 * Authenticates the control plane: `Authorization: Bearer <admin token>` is
 * the operator, `Bearer wbk_…` a participant. Fails closed: a farm reached off
 * loopback whose admin token is missing or is the published development one
 * refuses every call with 503 and logs why.
 */
import type { MiddlewareHandler } from "hono";
import { safeEqual } from "../../../mechanics/kit/hmac.ts";
import { DEV_ADMIN_TOKEN, isLoopbackHost } from "./dev-token.ts";
import { keyHash, PARTICIPANT_KEY_PREFIX, type Principal } from "./principal.ts";

/** Where a request came from, as far as the farm can tell. */
export interface Reach {
  /** The hostname the request was addressed to (the Host header). */
  hostname: string;
  /** The client's address as the runtime reports it (`cf-connecting-ip`), when it does. */
  clientIp: string | null;
  /** `public` when the farm is deployed or bound off loopback (a deploy-time var). */
  exposure: string | undefined;
}

/** Whether a request reached the farm on loopback: never on a public farm; else both its Host and any reported client address are loopback. */
export function reachedOnLoopback(r: Reach): boolean {
  return r.exposure !== "public" && isLoopbackHost(r.hostname) && (r.clientIp === null || isLoopbackHost(r.clientIp));
}

/** Why the control plane must stay shut for this request, or null when it may open. */
export function closedBecause(expected: string | undefined, reach: Reach): string | null {
  if (reachedOnLoopback(reach)) return expected ? null : "WIREBENCH_ADMIN_TOKEN is not set";
  if (!expected) return "WIREBENCH_ADMIN_TOKEN is not set (set it with `wrangler secret put WIREBENCH_ADMIN_TOKEN`)";
  if (safeEqual(expected, DEV_ADMIN_TOKEN)) return "WIREBENCH_ADMIN_TOKEN is the published development token; a farm off loopback needs its own secret";
  return null;
}

/** How the middleware reads its configuration. */
export interface PrincipalOptions {
  /** The configured admin token. */
  adminToken(env: unknown): string | undefined;
  /** The farm's deploy-time exposure (`public` off loopback). */
  exposure(env: unknown): string | undefined;
  /** The participant holding a key (by the key's hash), or null. */
  participant(env: unknown, keyHash: string): Promise<Extract<Principal, { kind: "participant" }> | null>;
}

/** Sets `c.var.principal`, or answers 401/503 naming what was wrong. */
export function principalAuth(opts: PrincipalOptions): MiddlewareHandler<{ Variables: { principal: Principal } }> {
  return async (c, next) => {
    const expected = opts.adminToken(c.env);
    const closed = closedBecause(expected, { hostname: new URL(c.req.url).hostname, clientIp: c.req.header("cf-connecting-ip") ?? null, exposure: opts.exposure(c.env) });
    if (closed) {
      console.error(`control plane refused: ${closed}`);
      return c.json({ error: `control plane disabled: ${closed}` }, 503);
    }
    const header = c.req.header("authorization");
    if (!header) return c.json({ error: "missing Authorization header: send Bearer <admin token or participant key>" }, 401);
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match) return c.json({ error: "Authorization must use the Bearer scheme" }, 401);
    const token = match[1].trim();
    if (safeEqual(token, expected!)) {
      c.set("principal", { kind: "admin" });
      return next();
    }
    if (token.startsWith(PARTICIPANT_KEY_PREFIX)) {
      const who = await opts.participant(c.env, await keyHash(token));
      if (!who) return c.json({ error: "participant key is not valid" }, 401);
      c.set("principal", who);
      return next();
    }
    return c.json({ error: "admin token is not valid" }, 401);
  };
}
