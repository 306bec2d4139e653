/**
 * @module faults/error-after-commit
 * The nth successful call of a write commits, then answers a 5xx anyway: a
 * client that retries without an idempotency key writes twice.
 */
import { z } from "zod";
import { defineFault, faultId } from "./define.ts";

const schema = z.object({
  kind: z.literal("error-after-commit"),
  id: faultId,
  write: z.string(),
  nth: z.number().int().positive(),
  status: z.number().int().min(500).max(599).default(500),
});

export const errorAfterCommit = defineFault({
  schema,
  hooks: {
    afterCommit(f, s, write) {
      if (write.name !== f.write) return null;
      const commits = s.memo(f.id, () => ({ n: 0 }));
      commits.n += 1;
      return commits.n === f.nth ? s.error(f.status, "internal_error", "the server could not complete the request") : null;
    },
  },
});
