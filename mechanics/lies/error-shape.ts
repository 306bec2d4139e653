/**
 * @module lies/error-shape
 * The docs give another error body shape.
 */
import { z } from "zod";
import { defineLie, lieCommon } from "./define.ts";

const schema = z.object({ kind: z.literal("error-shape"), ...lieCommon, says: z.object({ wrap: z.string().optional(), codeField: z.string(), messageField: z.string() }) });

export const errorShape = defineLie({
  schema,
  problem(v, lie) {
    const e = v.errors;
    return (e.wrap ?? "") === (lie.says.wrap ?? "") && e.codeField === lie.says.codeField && e.messageField === lie.says.messageField ? "that is the real error shape" : null;
  },
  tell(m, lie) {
    m.errors = { ...m.errors, wrap: lie.says.wrap, codeField: lie.says.codeField, messageField: lie.says.messageField };
  },
  areas: { openapi: /^components\.schemas\.Error/, pages: /^(errors|index)$/ },
  touches: (_lie, f) => f.status >= 400 && f.route !== "mint",
});
