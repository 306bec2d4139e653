/**
 * @module faults/webhook-late-version
 * The `nth` update event of the epoch (counting only events of `type` when
 * given) is followed by a late delivery of the record's previous version: the
 * event of the change before it, held up and delivered after the whole batch,
 * so after the newer one. A receiver that applies whatever arrives last goes
 * back to the older version.
 */
import { z } from "zod";
import { defineFault, faultId } from "./define.ts";

const schema = z.object({ kind: z.literal("webhook-late-version"), id: faultId, nth: z.number().int().positive(), type: z.string().optional() });

export const webhookLateVersion = defineFault({
  schema,
  hooks: {
    onEvent(f, event) {
      const hit = f.type ? f.type === event.type && event.nthOfType(f.type) === f.nth : f.nth === event.n;
      return hit ? { lateVersion: true } : null;
    },
  },
});
