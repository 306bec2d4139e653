/**
 * @module faults/paired-write-fails
 * One logical operation takes two calls (`first`, then `second`), and the
 * vendor does not make them atomic: once a `first` has committed in the
 * epoch, the `nth` call of `second` is refused (a 409 or a 5xx) while the
 * `first` stays committed. A client must notice the half-done pair and finish
 * it (retry the second call), not redo the first.
 */
import { z } from "zod";
import { defineFault, faultId } from "./define.ts";

const schema = z.object({
  kind: z.literal("paired-write-fails"),
  id: faultId,
  /** The write that opens the pair; it always commits. */
  first: z.string(),
  /** The write that completes it; its `nth` call after a `first` committed is refused. */
  second: z.string(),
  /** Which call of `second` (1-based, counted from the first commit of `first` in the epoch) is refused. */
  nth: z.number().int().positive().default(1),
  /** Status of the refusal: a conflict or a server error. */
  status: z.union([z.literal(409), z.number().int().min(500).max(599)]).default(503),
  /** Error code of the refusal. */
  code: z
    .string()
    .regex(/^[a-z][a-z_]*$/)
    .default("upstream_unavailable"),
  /** Error message of the refusal. */
  message: z.string().min(1).default("the request could not be completed; nothing was changed by it"),
});

export const pairedWriteFails = defineFault({
  schema,
  check(f, v, issue) {
    for (const key of ["first", "second"] as const) if (!v.writes.some((w) => w.name === f[key])) issue([key], `unknown write "${f[key]}"`);
    if (f.first === f.second) issue(["second"], "a pair needs two different writes");
  },
  hooks: {
    afterCommit(f, s, write) {
      if (write.name === f.first) s.memo(f.id, () => ({ firsts: 0, seconds: 0 })).firsts += 1;
      return null;
    },
    beforeWrite(f, s, write) {
      if (write.name !== f.second) return null;
      const pair = s.memo(f.id, () => ({ firsts: 0, seconds: 0 }));
      if (pair.firsts === 0) return null;
      pair.seconds += 1;
      return pair.seconds === f.nth ? s.error(f.status, f.code, f.message) : null;
    },
  },
});
