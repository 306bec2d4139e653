/**
 * @module auth/csrf
 * The CSRF token a cookie session carries: derived from the session value,
 * handed out by the login that opened the session, required on writes.
 */
import { hashKey } from "../kit/hash-key.ts";

/** The CSRF token of one session. */
export function csrfTokenOf(session: string): string {
  return `csrf_${hashKey([session, "csrf"]).toString(36)}${hashKey(["csrf", session]).toString(36)}`;
}

/** Methods a CSRF token is required on. */
export const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
