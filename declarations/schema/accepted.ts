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
});
export type Accepted = z.infer<typeof Accepted>;
