/**
 * @module faults/webhook-stale
 * After `afterEvents` events, `count` deliveries signed with a timestamp
 * `skewS` seconds old are injected. Receivers must refuse them.
 */
import { z } from "zod";
import { defineFault, faultId } from "./define.ts";

const schema = z.object({
  kind: z.literal("webhook-stale"),
  id: faultId,
  afterEvents: z.number().int().min(0),
  count: z.number().int().positive().default(1),
  skewS: z.number().int().positive().default(900),
});

export const webhookStale = defineFault({
  schema,
  hooks: {
    onEvent(f, event) {
      return event.n > f.afterEvents && event.n <= f.afterEvents + f.count ? { extra: [{ skewS: f.skewS }] } : null;
    },
  },
});
