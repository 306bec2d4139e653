/**
 * @module faults/webhook-out-of-order
 * Each batch of events is delivered in reverse order.
 */
import { z } from "zod";
import { defineFault, faultId } from "./define.ts";

const schema = z.object({ kind: z.literal("webhook-out-of-order"), id: faultId });

export const webhookOutOfOrder = defineFault({
  schema,
  hooks: {
    reorderBatch(_f, jobs) {
      return [...jobs].reverse();
    },
  },
});
