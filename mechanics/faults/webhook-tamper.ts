/**
 * @module faults/webhook-tamper
 * After `afterEvents` events, `count` forged deliveries (a well-formed but
 * wrong signature) are injected. Receivers must refuse them.
 */
import { z } from "zod";
import { answered2xx, type ConductContext, hardGate } from "../../evidence/conduct.ts";
import { defineFault, faultId } from "./define.ts";

const schema = z.object({ kind: z.literal("webhook-tamper"), id: faultId, afterEvents: z.number().int().min(0), count: z.number().int().positive().default(1) });

/** Hard gate: every answered delivery with a forged signature was refused. */
export function forgedWebhookRejected(ctx: ConductContext) {
  const forged = ctx.webhooks.filter((d) => d.tampered && d.responseCode !== null);
  if (!forged.length) return null;
  const accepted = forged.find((d) => answered2xx(d.responseCode));
  return hardGate(
    "webhook_bad_signature_rejected",
    !accepted,
    accepted ? `forged delivery ${accepted.eventId} was accepted with ${accepted.responseCode}` : `${forged.length} forged deliveries refused`,
  );
}

export const webhookTamper = defineFault({
  schema,
  conduct: [forgedWebhookRejected],
  hooks: {
    onEvent(f, event) {
      return event.n > f.afterEvents && event.n <= f.afterEvents + f.count ? { extra: [{ tampered: true }] } : null;
    },
  },
});
