/**
 * @module faults/payload-too-large
 * Bulk writes with more than `maxItems` items are refused with 413, below
 * the documented maximum: a client must split the batch.
 */
import { z } from "zod";
import { defineFault, faultId } from "./define.ts";

const schema = z.object({ kind: z.literal("payload-too-large"), id: faultId, write: z.string(), maxItems: z.number().int().positive() });

export const payloadTooLarge = defineFault({
  schema,
  hooks: {
    beforeWrite(f, s, write) {
      return write.name === f.write && write.items > f.maxItems ? s.error(413, "payload_too_large", "the request body is too large") : null;
    },
  },
});
