/**
 * @module lies/signature-recipe
 * The docs give another request-signing recipe (parts, order or separator).
 */
import { z } from "zod";
import { authScheme } from "../auth/index.ts";
import { defineLie, lieCommon } from "./define.ts";

const schema = z.object({ kind: z.literal("signature-recipe"), ...lieCommon, says: z.object({ parts: z.array(z.string()).min(1), separator: z.string() }) });

export const signatureRecipe = defineLie({
  schema,
  problem(v, lie) {
    const signed = v.auth.present.find((p) => authScheme(p).recipe);
    if (!signed) return "the vendor does not sign requests";
    const real = authScheme(signed).recipe!.get(signed as never);
    const same = JSON.stringify(real.parts) === JSON.stringify(lie.says.parts) && real.separator === lie.says.separator;
    return same ? "that is the real recipe" : null;
  },
  tell(m, lie) {
    for (const p of m.present) authScheme(p).recipe?.set(p as never, lie.says);
  },
  areas: { openapi: /^components\.securitySchemes\./, pages: /^authentication$/ },
  touches: (_lie, f) => f.route !== null && f.route !== "mint",
});
