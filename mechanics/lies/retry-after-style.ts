/**
 * @module lies/retry-after-style
 * The docs describe how a 429 says when to retry in another way (seconds,
 * an HTTP date, or a body field).
 */
import { z } from "zod";
import { defineLie, lieCommon } from "./define.ts";

const schema = z.object({ kind: z.literal("retry-after-style"), ...lieCommon, says: z.enum(["seconds", "http-date", "body"]) });

export const retryAfterStyle = defineLie({
  schema,
  problem(v, lie) {
    if (!v.rateLimit) return "the vendor has no rate limit";
    return lie.says === v.rateLimit.retryAfter ? "that is the real Retry-After style" : null;
  },
  tell(m, lie) {
    if (m.rateLimit) m.rateLimit.retryAfter = lie.says;
  },
  areas: { openapi: /^paths\..*\.responses\.429\./, pages: /^(rate-limits|index)$/ },
  touches: (_lie, f) => f.status === 429,
});
