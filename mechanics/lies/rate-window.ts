/**
 * @module lies/rate-window
 * The docs give another rate-limit quota or window.
 */
import { z } from "zod";
import { defineLie, lieCommon } from "./define.ts";

const schema = z.object({ kind: z.literal("rate-window"), ...lieCommon, says: z.object({ limit: z.number().int().positive(), cooldownS: z.number().int().positive() }) });

export const rateWindow = defineLie({
  schema,
  problem(v, lie) {
    if (!v.rateLimit) return "the vendor has no rate limit";
    return v.rateLimit.limit === lie.says.limit && v.rateLimit.cooldownS === lie.says.cooldownS ? "that is the real window" : null;
  },
  tell(m, lie) {
    if (m.rateLimit) Object.assign(m.rateLimit, lie.says);
  },
  areas: { openapi: /^$/, pages: /^(rate-limits|index)$/ },
  touches: (_lie, f) => f.status === 429,
});
