/**
 * @module faults/multi-status-phantom
 * A bulk write's 207 reports the `nth` item of a call (counting items across
 * the calls of the epoch) as created, with an id, but nothing is stored:
 * reading it back answers 404 and lists never show it. A client must
 * reconcile what a multi-status says against what the vendor holds.
 */
import { z } from "zod";
import { defineFault, faultId } from "./define.ts";

const schema = z.object({
  kind: z.literal("multi-status-phantom"),
  id: faultId,
  write: z.string(),
  /** Which created item of the epoch (1-based, across calls) is reported and never stored. */
  nth: z.number().int().positive(),
});

export const multiStatusPhantom = defineFault({
  schema,
  hooks: {
    onBulkItem(f, s, item) {
      if (item.write !== f.write) return null;
      const seen = s.memo(f.id, () => ({ n: 0 }));
      seen.n += 1;
      return seen.n === f.nth ? { phantom: true } : null;
    },
  },
});
