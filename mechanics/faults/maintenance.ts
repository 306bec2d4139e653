/**
 * @module faults/maintenance
 * The vendor is down for maintenance: `count` requests after a request-count
 * trigger, or every request while an alarm-timed window of `durationS` is
 * open, get 503 with a long Retry-After.
 */
import { z } from "zod";
import { defineFault, faultId } from "./define.ts";

const schema = z.object({
  kind: z.literal("maintenance"),
  id: faultId,
  afterRequests: z.number().int().min(0).optional(),
  count: z.number().int().positive().default(1),
  afterSeconds: z.number().int().positive().optional(),
  durationS: z.number().int().positive().default(60),
  retryAfterS: z.number().int().positive().default(120),
});

export const maintenance = defineFault({
  schema,
  check(f, _v, issue) {
    if ((f.afterRequests === undefined) === (f.afterSeconds === undefined)) issue([], "maintenance needs exactly one of afterRequests or afterSeconds");
  },
  hooks: {
    beforeRoute(f, s) {
      const down = f.afterSeconds !== undefined ? s.windowOpen(f.id) : s.reached(f) && s.takeOne(f.id, f.count);
      if (!down) return null;
      return { reply: s.error(503, "maintenance", "the service is down for maintenance", {}, { "retry-after": String(f.retryAfterS) }), retryAfter: f.retryAfterS };
    },
    timedWindows(f) {
      return f.afterSeconds === undefined ? [] : [{ openAfterS: f.afterSeconds, closeAfterS: f.afterSeconds + f.durationS }];
    },
  },
});
