/**
 * @module lies/token-expiry
 * The docs say a token's expiry is sliding when it is absolute, or the reverse.
 */
import { z } from "zod";
import { tokenMint } from "../auth/index.ts";
import { defineLie, lieCommon } from "./define.ts";

const schema = z.object({ kind: z.literal("token-expiry"), ...lieCommon, token: z.string(), says: z.enum(["sliding", "absolute"]) });

export const tokenExpiry = defineLie({
  schema,
  problem(v, lie) {
    const mint = v.auth.mints.find((m) => m.issues === lie.token);
    const expiry = mint ? tokenMint(mint).expiry?.get(mint as never) : undefined;
    if (!expiry) return `no token "${lie.token}" with an expiry policy`;
    return expiry === lie.says ? "that is the real expiry policy" : null;
  },
  tell(m, lie) {
    for (const mint of m.mints) if (mint.issues === lie.token) tokenMint(mint).expiry?.set(mint as never, lie.says);
  },
  areas: { openapi: /^$/, pages: /^authentication$/ },
  touches: (lie, f) => (f.route === "mint" && f.mintIssues === lie.token) || f.authOutcome === "expired",
});
