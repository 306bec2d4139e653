/**
 * @module faults/webhook-stale
 * After `afterEvents` events, `count` deliveries signed with a timestamp
 * `skewS` seconds old are injected. Receivers must refuse them.
 */
import { z } from "zod";
import { answered2xx, type ConductContext, hardGate } from "../../evidence/conduct.ts";
import { defineFault, faultId } from "./define.ts";

const schema = z.object({
  kind: z.literal("webhook-stale"),
  id: faultId,
  afterEvents: z.number().int().min(0),
  count: z.number().int().positive().default(1),
  skewS: z.number().int().positive().default(900),
});

/** Hard gate: every answered delivery with a timestamp outside the window was refused. */
export function staleWebhookRejected(ctx: ConductContext) {
  const maxSkewS = ctx.maxSkewS ?? 300;
  const stale = ctx.webhooks.filter((d) => Math.abs(d.skewS) > maxSkewS && d.responseCode !== null);
  if (!stale.length) return null;
  const accepted = stale.find((d) => answered2xx(d.responseCode));
  return hardGate("webhook_stale_timestamp_rejected", !accepted, accepted ? `stale delivery ${accepted.eventId} (skew ${accepted.skewS}s) was accepted` : `${stale.length} stale deliveries refused`);
}

export const webhookStale = defineFault({
  schema,
  conduct: [staleWebhookRejected],
  hooks: {
    onEvent(f, event) {
      return event.n > f.afterEvents && event.n <= f.afterEvents + f.count ? { extra: [{ skewS: f.skewS }] } : null;
    },
  },
});
