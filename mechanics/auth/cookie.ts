/**
 * @module auth/cookie
 * A session cookie every data request carries, set by a login.
 */
import { z } from "zod";
import { defineScheme } from "./define.ts";
import { cookieValue } from "./value-source.ts";

const schema = z.object({ kind: z.literal("cookie"), name: z.string(), value: z.object({ token: z.string() }) });

export const cookieScheme = defineScheme({
  schema,
  refs: (p) => [{ key: "value", token: p.value.token }],
  verify(p, req, ctx) {
    const value = cookieValue(req.headers.get("cookie"), p.name);
    if (!value) return { outcome: "missing", reason: `cookie ${p.name} is required`, code: "unauthorized" };
    return ctx.checkToken(value, p.value.token);
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
  secretHeaders: () => [],
  headerNames: () => [],
  renameHeader() {},
  docs: {
    every: (p) => [`- the \`${p.name}\` cookie from the login response.`],
    curl: (p) => `-H "Cookie: ${p.name}=$${p.value.token.toUpperCase()}"`,
    securityName: (p) => `cookie_${p.name}`,
    securityScheme: (p) => ({ type: "apiKey", in: "cookie", name: p.name, "x-wirebench-token": p.value.token }),
  },
});
