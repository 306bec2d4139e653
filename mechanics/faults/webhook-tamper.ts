/**
 * @module faults/webhook-tamper
 * After `afterEvents` events, `count` forged deliveries (a well-formed but
 * wrong signature) are injected. Receivers must refuse them.
 */
import { z } from "zod";
import { defineFault, faultId } from "./define.ts";

const schema = z.object({ kind: z.literal("webhook-tamper"), id: faultId, afterEvents: z.number().int().min(0), count: z.number().int().positive().default(1) });

export const webhookTamper = defineFault({
  schema,
  hooks: {
    onEvent(f, event) {
      return event.n > f.afterEvents && event.n <= f.afterEvents + f.count ? { extra: [{ tampered: true }] } : null;
    },
  },
});
