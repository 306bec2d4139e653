/**
 * @module auth/login
 * Username and password login that sets a session cookie.
 */
import { z } from "zod";
import { safeEqual } from "../kit/hmac.ts";
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
      reply: { status: 200, headers: { "set-cookie": `${mint.cookie}=${session.value}; Path=/; HttpOnly; Max-Age=${mint.ttlS}` }, body: { ok: true, expires_in: mint.ttlS } },
      auth: "ok",
      minted: [{ kind: "session_cookie", route: "login", expiresIn: mint.ttlS }],
    };
  },
  docs: {
    section: (mint) => [`## Login: \`POST ${mint.path}\``, "", `Send \`username\` and \`password\`. The response sets the \`${mint.cookie}\` cookie (${mint.ttlS} s).`, ""],
    operation: (m) => ({
      summary: "Log in",
      mint: { kind: m.kind, issues: m.issues, username: m.username, password: m.password, cookie: m.cookie },
      security: [],
      bodyRequired: true,
    }),
  },
});
