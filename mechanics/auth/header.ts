/**
 * @module auth/header
 * A header every data request carries: a static credential
 * (`X-Api-Key: <key>`) or a minted token (`Authorization: Bearer <token>`).
 * Also the shape of a vendor's legacy credential.
 */
import { z } from "zod";
import { safeEqual } from "../kit/hmac.ts";
import { withArticle } from "../kit/words.ts";
import { defineScheme, OK } from "./define.ts";
import { ValueSource, valueRefs } from "./value-source.ts";

export const HeaderRequirement = z.object({
  kind: z.literal("header"),
  /** Header name as documented. */
  name: z.string(),
  /** Optional scheme, e.g. `Bearer` gives `Authorization: Bearer <value>`. */
  scheme: z.string().optional(),
  value: ValueSource,
});
export type HeaderRequirement = z.infer<typeof HeaderRequirement>;

function stripScheme(raw: string, scheme: string | undefined): string | null {
  if (!scheme) return raw.trim();
  const prefix = `${scheme.toLowerCase()} `;
  return raw.toLowerCase().startsWith(prefix) ? raw.slice(prefix.length).trim() : null;
}

export const headerScheme = defineScheme({
  schema: HeaderRequirement,
  refs: (p) => valueRefs(p.value),
  verify(p, req, ctx) {
    const raw = req.headers.get(p.name);
    if (raw === null || raw.trim() === "") return { outcome: "missing", reason: `${p.name} header is required`, code: "unauthorized" };
    const value = stripScheme(raw, p.scheme);
    if (value === null) return { outcome: "invalid", reason: `${p.name} must use the ${p.scheme} scheme`, code: "unauthorized" };
    if ("credential" in p.value) return safeEqual(value, ctx.credentials[p.value.credential]) ? OK : { outcome: "invalid", reason: `${p.name} is not valid`, code: "unauthorized" };
    return ctx.checkToken(value, p.value.token);
  },
  presentedToken(p, headers) {
    if (!("token" in p.value)) return null;
    const raw = headers.get(p.name);
    if (!raw) return null;
    const scheme = p.scheme ? `${p.scheme.toLowerCase()} ` : "";
    return (scheme && raw.toLowerCase().startsWith(scheme) ? raw.slice(scheme.length) : raw).trim();
  },
  secretHeaders: (p) => [p.name],
  headerNames: (p) => [p.name],
  renameHeader(p, from, to) {
    if (p.name.toLowerCase() === from.toLowerCase()) p.name = to;
  },
  docs: {
    every(p) {
      const value = "credential" in p.value ? `the \`${p.value.credential}\` credential` : withArticle(`\`${p.value.token}\``);
      return [`- \`${p.name}: ${p.scheme ? `${p.scheme} ` : ""}<value>\` with ${value}.`];
    },
    curl(p, ctx) {
      const value = "credential" in p.value ? `$${ctx.envName(p.value.credential)}` : `$${p.value.token.toUpperCase()}`;
      return `-H "${p.name}: ${p.scheme ? `${p.scheme} ` : ""}${value}"`;
    },
    securityName: (p) => `header_${p.name.toLowerCase().replace(/[^a-z0-9]+/g, "_")}`,
    securityScheme(p) {
      const source = "credential" in p.value ? { "x-wirebench-credential": p.value.credential } : { "x-wirebench-token": p.value.token };
      return p.scheme?.toLowerCase() === "bearer"
        ? { type: "http", scheme: "bearer", ...source }
        : { type: "apiKey", in: "header", name: p.name, ...(p.scheme ? { "x-wirebench-scheme": p.scheme } : {}), ...source };
    },
  },
});
