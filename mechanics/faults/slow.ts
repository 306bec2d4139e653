/**
 * @module faults/slow
 * `count` responses after the trigger are delayed by `delayMs`.
 */
import { z } from "zod";
import { afterRequests, defineFault, faultId } from "./define.ts";

const schema = z.object({
  kind: z.literal("slow"),
  id: faultId,
  ...afterRequests,
  count: z.number().int().positive(),
  delayMs: z.number().int().positive().max(10_000),
});

export const slow = defineFault({
  schema,
  hooks: {
    beforeRoute(f, s) {
      return s.reached(f) && s.takeOne(f.id, f.count) ? { delayMs: f.delayMs } : null;
    },
  },
});
