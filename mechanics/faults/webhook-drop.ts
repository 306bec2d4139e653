/**
 * @module faults/webhook-drop
 * The `nth` webhook event of the epoch (counting only events of `type` when
 * given) is never delivered: recoverable only by polling.
 */
import { z } from "zod";
import { defineFault, faultId } from "./define.ts";

const schema = z.object({ kind: z.literal("webhook-drop"), id: faultId, nth: z.number().int().positive(), type: z.string().optional() });

export const webhookDrop = defineFault({
  schema,
  hooks: {
    onEvent(f, event) {
      const hit = f.type ? f.type === event.type && event.nthOfType(f.type) === f.nth : f.nth === event.n;
      return hit ? { drop: true } : null;
    },
  },
});
