import { z } from "zod";

/**
 * A write the vendor accepts now and applies later: the call answers
 * `202 Accepted` with a request id, and the change lands only after this
 * many further requests (counted, never timed), announced by the entity's
 * webhook event, which carries the request id. A client must treat the 202
 * as pending, not as done.
 */
export const Accepted = z.object({
  /** Further requests to the vendor (any path, any answer) before the change lands. */
  afterRequests: z.number().int().positive(),
  /** Field of the 202 body, and top-level field of the event that confirms it, holding the request id. */
  requestIdField: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
    .default("request_id"),
  /** Prefix of request ids (`sched_`); the request's sequence number follows. */
  requestIdPrefix: z
    .string()
    .regex(/^[a-z][a-z0-9_]*$/)
    .default("req_"),
  /**
   * When the vendor can turn an accepted write down as it comes to apply it:
   * the op of the event that says so (`reschedule_failed` announces
   * `interview.reschedule_failed`), carrying the request id and an `error`
   * object (`code`, `message`), the record as it still is. Only a fault
   * (`accepted-write-refused`) makes the vendor refuse.
   */
  refusedOp: z
    .string()
    .regex(/^[a-z][a-z_]*$/)
    .refine((op) => !["created", "updated", "deleted"].includes(op), "must not be created, updated or deleted")
    .optional(),
});
export type Accepted = z.infer<typeof Accepted>;
