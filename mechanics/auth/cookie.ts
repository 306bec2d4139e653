/**
 * @module auth/cookie
 * A session cookie every data request carries, set by a login.
 */
import { z } from "zod";
import { safeEqual } from "../kit/hmac.ts";
import { csrfTokenOf, WRITE_METHODS } from "./csrf.ts";
import { defineScheme } from "./define.ts";
import { cookieValue } from "./value-source.ts";

const schema = z.object({
  kind: z.literal("cookie"),
  name: z.string(),
  value: z.object({ token: z.string() }),
  /** Writes must also send the session's CSRF token (from the login response) in this header. */
  csrf: z.object({ header: z.string() }).optional(),
});

export const cookieScheme = defineScheme({
  schema,
  refs: (p) => [{ key: "value", token: p.value.token }],
  verify(p, req, ctx) {
    const value = cookieValue(req.headers.get("cookie"), p.name);
    if (!value) return { outcome: "missing", reason: `cookie ${p.name} is required`, code: "unauthorized" };
    const session = ctx.checkToken(value, p.value.token);
    if (session.outcome !== "ok" || !p.csrf || !WRITE_METHODS.has(req.method)) return session;
    const sent = req.headers.get(p.csrf.header);
    if (!sent) return { outcome: "missing", reason: `${p.csrf.header} is required on writes`, code: "csrf_token_missing" };
    return safeEqual(sent.trim(), csrfTokenOf(value)) ? session : { outcome: "invalid", reason: `${p.csrf.header} does not belong to this session`, code: "csrf_token_invalid" };
  },
  presentedToken(p, headers) {
    const raw =
      (headers.get("cookie") ?? "")
        .split(";")
        .map((c) => c.trim())
        .find((c) => c.startsWith(`${p.name}=`))
        ?.slice(p.name.length + 1) ?? null;
    return raw ? raw.trim() : null;
  },
  secretHeaders: (p) => (p.csrf ? [p.csrf.header] : []),
  headerNames: (p) => (p.csrf ? [p.csrf.header] : []),
  renameHeader(p, from, to) {
    if (p.csrf && p.csrf.header.toLowerCase() === from.toLowerCase()) p.csrf.header = to;
  },
  docs: {
    every: (p) => [
      `- the \`${p.name}\` cookie from the login response${p.csrf ? `; on writes (POST, PUT, PATCH, DELETE) also \`${p.csrf.header}\` with the session's CSRF token from the login response` : ""}.`,
    ],
    curl: (p) => `-H "Cookie: ${p.name}=$${p.value.token.toUpperCase()}"`,
    securityName: (p) => `cookie_${p.name}`,
    securityScheme: (p) => ({ type: "apiKey", in: "cookie", name: p.name, "x-wirebench-token": p.value.token, ...(p.csrf ? { "x-wirebench-csrf-header": p.csrf.header } : {}) }),
  },
});
