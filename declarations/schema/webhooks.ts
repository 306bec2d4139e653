import { z } from "zod";

/** How deliveries are signed. */
export const WebhookSignature = z.discriminatedUnion("scheme", [
  /** Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC of id.timestamp.body>`; the secret is `whsec_<base64>`. */
  z.object({ scheme: z.literal("standard"), secret: z.string() }),
  /** Stripe style: one header `t=<ts>,v1=<hex HMAC of ts.body>`. */
  z.object({ scheme: z.literal("stripe"), secret: z.string(), header: z.string().default("X-Signature") }),
  /** GitHub style: `X-Hub-Signature-256: sha256=<hex HMAC of body>` (no timestamp). */
  z.object({ scheme: z.literal("github"), secret: z.string() }),
  /** A vendor pair: hex HMAC of `<timestamp>.<body>` in one header, the Unix timestamp in another. */
  z.object({ scheme: z.literal("custom"), secret: z.string(), signatureHeader: z.string(), timestampHeader: z.string() }),
]);
export type WebhookSignature = z.infer<typeof WebhookSignature>;

/** The events a vendor pushes, how they are signed and how delivery is retried. */
export const Webhooks = z.object({
  /** Entities whose creates, updates and deletes become events (`candidate.created`, ...). */
  entities: z.array(z.string()).min(1),
  /** `full` carries the record; `id-only` carries its id, to be fetched. */
  payload: z.enum(["full", "id-only"]),
  signature: WebhookSignature,
  /** Largest accepted difference between the signed timestamp and now, for receivers. */
  maxSkewS: z.number().int().positive().default(300),
  /** Seconds to wait before each retry after a non-2xx or no answer. */
  retrySchedule: z.array(z.number().int().positive()).default([5, 30, 120]),
  /** Endpoint where a client registers its target URL (`POST {url}`); absent when only the control plane sets it. */
  subscriptionPath: z.string().startsWith("/").optional(),
  /**
   * Ack-body protocol: a delivery counts only when the receiver answers 2xx
   * with a JSON body whose `field` equals the event id; events still unacked
   * after the last retry go to a dead-letter queue drained at `deadLetterPath`.
   */
  ack: z.object({ field: z.string(), deadLetterPath: z.string().startsWith("/") }).optional(),
});
export type Webhooks = z.infer<typeof Webhooks>;
