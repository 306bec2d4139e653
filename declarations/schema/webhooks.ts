import { WebhookSignature } from "../../mechanics/signatures/index.ts";
import { z } from "zod";

/** How deliveries are signed: one scheme module of `mechanics/signatures/` per `scheme`. */
export { WebhookSignature };

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
   * The test-delivery route: `POST {path}` with `{"<typeField>": "<entity>.<op>"}`
   * signs and delivers one event of that type, built from a record of the
   * world, to the registered receiver, retried and dead-lettered as any event.
   */
  testDelivery: z
    .object({
      path: z.string().startsWith("/"),
      /** Body field naming the event type, in the vendor's own naming. */
      typeField: z.string().min(1),
    })
    .strict()
    .optional(),
  /**
   * Ack-body protocol: a delivery counts only when the receiver answers 2xx
   * with a JSON body whose `field` equals the event id; events still unacked
   * after the last retry go to a dead-letter queue drained at `deadLetterPath`.
   */
  ack: z
    .object({
      field: z.string(),
      deadLetterPath: z.string().startsWith("/"),
      /**
       * Timeline checkpoint from which the protocol is in force (a protocol
       * change the vendor announced); before it a bare 2xx acknowledges and
       * nothing is dead-lettered. Absent: in force from the start.
       */
      fromCheckpoint: z.number().int().positive().optional(),
      /**
       * Attempts (the first included) after which an unacknowledged event is
       * dead-lettered while the protocol is in force; absent: the first
       * attempt and every retry of `retrySchedule`.
       */
      maxAttempts: z.number().int().positive().optional(),
    })
    .optional(),
});
export type Webhooks = z.infer<typeof Webhooks>;
