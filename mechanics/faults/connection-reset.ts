/**
 * @module faults/connection-reset
 * `count` responses after the trigger are cut off mid-body: the status line
 * and headers arrive, then the connection drops after half the body (or
 * `keepBytes`). A client must treat the read as failed and retry it.
 */
import { z } from "zod";
import { afterRequests, defineFault, faultId } from "./define.ts";

const schema = z.object({
  kind: z.literal("connection-reset"),
  id: faultId,
  ...afterRequests,
  count: z.number().int().positive().default(1),
  /** Body bytes sent before the connection drops; half the body when absent. */
  keepBytes: z.number().int().min(0).optional(),
});

export const connectionReset = defineFault({
  schema,
  hooks: {
    onRespond(f, s, response) {
      if (!s.reached(f) || !s.takeOne(f.id, f.count)) return null;
      return { cutAfterBytes: Math.min(f.keepBytes ?? Math.floor(response.bodyBytes / 2), Math.max(0, response.bodyBytes - 1)) };
    },
  },
});
