/**
 * @module faults/rate-limit-window
 * A rate-limit window opens at the trigger: every request gets 429 until
 * `cooldownS` seconds of real time have passed.
 */
import { z } from "zod";
import { afterRequests, defineFault, faultId } from "./define.ts";

const schema = z.object({
  kind: z.literal("rate-limit-window"),
  id: faultId,
  ...afterRequests,
  cooldownS: z.number().int().positive(),
  retryAfter: z.enum(["seconds", "http-date", "body"]).default("seconds"),
});

export const rateLimitWindow = defineFault({
  schema,
  hooks: {
    beforeRoute(f, s, req) {
      if (!s.reached(f)) return null;
      const window = s.memo(f.id, () => ({ untilMs: req.nowMs + f.cooldownS * 1000 }));
      if (req.nowMs >= window.untilMs) return null;
      const retryAfter = Math.max(1, Math.ceil((window.untilMs - req.nowMs) / 1000));
      return { reply: s.tooManyRequests(f.retryAfter, retryAfter, req.nowMs), rateLimited: true, retryAfter };
    },
  },
});
