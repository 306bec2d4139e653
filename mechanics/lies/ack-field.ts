/**
 * @module lies/ack-field
 * The docs name another body field for the webhook acknowledgement: a
 * receiver that echoes the event id there is not acknowledging, so its
 * deliveries are retried and end in the dead-letter queue.
 */
import { z } from "zod";
import { defineLie, lieCommon, type VendorForLies } from "./define.ts";

const schema = z.object({ kind: z.literal("ack-field"), ...lieCommon, says: z.string().min(1) });

/** The vendor's ack-body protocol, when it declares one (lies read vendors structurally). */
function ackOf(v: VendorForLies): { field: string } | undefined {
  return (v as unknown as { webhooks?: { ack?: { field: string } } }).webhooks?.ack;
}

export const ackField = defineLie({
  schema,
  problem(v, lie) {
    const ack = ackOf(v);
    if (!ack) return "the vendor has no webhook ack-body protocol";
    return ack.field === lie.says ? "that is the real acknowledgement field" : null;
  },
  tell(m, lie) {
    if (m.webhooks?.ack) m.webhooks.ack.field = lie.says;
  },
  areas: { openapi: /^webhooks\./, pages: /^webhooks$/ },
  // Draining the dead-letter queue is the request a receiver misled by the field ends up making.
  touches: (_lie, f) => f.route === "dead-letters",
});
