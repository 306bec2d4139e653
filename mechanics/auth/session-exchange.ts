/**
 * @module auth/session-exchange
 * Exchanges a token already held for a session token (the second link of a
 * chain); sessions expire absolutely or slide with each request.
 */
import { z } from "zod";
import { defineMint, oauthError } from "./define.ts";

const schema = z.object({
  kind: z.literal("session_exchange"),
  path: z.string().startsWith("/"),
  /** Token that must be presented as `Authorization: Bearer` to open a session. */
  requires: z.string(),
  /** Name of the session token this mint issues. */
  issues: z.string(),
  /** JSON field of the response carrying the session token. */
  responseField: z.string().default("session_token"),
  /** Session lifetime in seconds. */
  ttlS: z.number().int().positive(),
  /** `sliding`: each authenticated request extends the session; `absolute`: it does not. */
  expiry: z.enum(["sliding", "absolute"]).default("absolute"),
});

export const sessionExchangeMint = defineMint({
  schema,
  refs: (m) => [{ key: "requires", token: m.requires }],
  logKind: "session_token",
  serve(mint, req, { tokens }) {
    const header = req.headers.get("authorization");
    if (!header) return oauthError(401, "invalid_token", "Authorization: Bearer <access token> is required", "missing");
    if (!header.toLowerCase().startsWith("bearer ")) return oauthError(401, "invalid_token", "Authorization must use the Bearer scheme", "invalid");
    const t = tokens.find(header.slice(7).trim());
    if (!t || t.name !== mint.requires || t.kind !== "access") return oauthError(401, "invalid_token", "access token is not recognised", "invalid");
    if (t.expiresMs <= req.nowMs) return oauthError(401, "invalid_token", "access token has expired", "expired");
    const session = tokens.issue(mint.issues, "session", mint.ttlS * 1000, req.nowMs);
    return {
      reply: { status: 200, headers: {}, body: { [mint.responseField]: session.value, expires_in: mint.ttlS } },
      auth: "ok",
      minted: [{ kind: "session_token", route: "session_exchange", expiresIn: mint.ttlS }],
    };
  },
  onTokenUsed(m, token, tokens, nowMs) {
    if (m.expiry === "sliding") tokens.extend(token.value, nowMs + m.ttlS * 1000);
  },
  expiry: {
    get: (m) => m.expiry,
    set(m, says) {
      m.expiry = says;
    },
  },
  docs: {
    section: (mint) => [
      `## Sessions: \`POST ${mint.path}\``,
      "",
      `Open a session with \`Authorization: Bearer <${mint.requires}>\`. The response carries \`${mint.responseField}\` and \`expires_in\` (${mint.ttlS} s). Sessions ${mint.expiry === "sliding" ? "slide: every authenticated request extends them" : "end after their lifetime whatever the activity"}.`,
      "",
    ],
    operation: (m) => ({
      summary: "Open a session",
      mint: { kind: m.kind, issues: m.issues, requires: m.requires, responseField: m.responseField },
      security: [{ [`oauth_${m.requires}`]: [] }],
      bodyRequired: false,
    }),
  },
});
