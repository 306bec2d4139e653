/**
 * @module faults/webhook-duplicates
 * Every `every`-th webhook event is delivered `copies` extra times (marked
 * duplicate in the delivery log).
 */
import { z } from "zod";
import { defineFault, faultId } from "./define.ts";

const schema = z.object({ kind: z.literal("webhook-duplicates"), id: faultId, every: z.number().int().positive().default(1), copies: z.number().int().positive().default(2) });

export const webhookDuplicates = defineFault({
  schema,
  hooks: {
    onEvent(f, event) {
      return event.n % f.every === 0 ? { extra: Array.from({ length: f.copies }, () => ({ duplicate: true })) } : null;
    },
  },
});
