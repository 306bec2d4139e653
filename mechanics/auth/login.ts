/**
 * @module auth/login
 * Username and password login that sets a session cookie.
 */
import { z } from "zod";
import { safeEqual } from "../kit/hmac.ts";
import { csrfTokenOf } from "./csrf.ts";
import { bodyField, defineMint, oauthError } from "./define.ts";

const schema = z.object({
  kind: z.literal("login"),
  path: z.string().startsWith("/"),
  /** Credential holding the username. */
  username: z.string(),
  /** Credential holding the password. */
  password: z.string(),
  issues: z.string(),
  /** Cookie name carrying the session. */
  cookie: z.string(),
  ttlS: z.number().int().positive(),
  /** Body field of the login response carrying the session's CSRF token (for cookie requirements with `csrf`). */
  csrfField: z.string().optional(),
});

export const loginMint = defineMint({
  schema,
  refs: (m) => [
    { key: "username", credential: m.username },
    { key: "password", credential: m.password },
  ],
  logKind: "session_cookie",
  serve(mint, req, { credentials, tokens }) {
    const user = bodyField(req, "username");
    const pass = bodyField(req, "password");
    if (!user || !pass) return oauthError(400, "invalid_request", "username and password are required", "missing");
    if (!safeEqual(user, credentials[mint.username]) || !safeEqual(pass, credentials[mint.password])) return oauthError(401, "invalid_credentials", "username or password is wrong", "invalid");
    const session = tokens.issue(mint.issues, "session", mint.ttlS * 1000, req.nowMs);
    return {
      reply: {
        status: 200,
        headers: { "set-cookie": `${mint.cookie}=${session.value}; Path=/; HttpOnly; Max-Age=${mint.ttlS}` },
        body: { ok: true, expires_in: mint.ttlS, ...(mint.csrfField ? { [mint.csrfField]: csrfTokenOf(session.value) } : {}) },
      },
      auth: "ok",
      minted: [{ kind: "session_cookie", route: "login", expiresIn: mint.ttlS }],
    };
  },
  docs: {
    section: (mint) => [
      `## Login: \`POST ${mint.path}\``,
      "",
      `Send \`username\` and \`password\`. The response sets the \`${mint.cookie}\` cookie (${mint.ttlS} s)${mint.csrfField ? ` and carries \`${mint.csrfField}\`, the session's CSRF token` : ""}. When the session ends, log in again.`,
      "",
    ],
    operation: (m) => ({
      summary: "Log in",
      mint: { kind: m.kind, issues: m.issues, username: m.username, password: m.password, cookie: m.cookie, ...(m.csrfField ? { csrfField: m.csrfField } : {}) },
      security: [],
      bodyRequired: true,
    }),
  },
});
