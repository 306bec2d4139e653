/**
 * @module faults/write-accepted-later
 * Under load the vendor takes a write for later: the `nth` call of a create
 * write (counted in the epoch, replays of an Idempotency-Key not counted) is
 * validated, then answered `202` with a request id and `status: pending`
 * instead of the record; the record is stored only once `afterRequests`
 * further requests have been served (counted, never timed), as if the call
 * had been made then. A repeat under the same key replays the 202. A client
 * that takes the 202 for a failure gives up a write that is about to land; one
 * that writes again under a new key writes twice. The vendor's documentation
 * says what a 202 means and where the record turns up.
 */
import { z } from "zod";
import { defineFault, faultId } from "./define.ts";

const schema = z.object({
  kind: z.literal("write-accepted-later"),
  id: faultId,
  /** The create write taken for later. */
  write: z.string(),
  /** Which call of `write` (1-based, across the epoch) is taken for later. */
  nth: z.number().int().positive(),
  /** Further requests to the vendor (any path, any answer) before the record is stored. */
  afterRequests: z.number().int().positive(),
  /** Prefix of the request id of the 202 (`req_`); the request's sequence number follows. */
  requestIdPrefix: z
    .string()
    .regex(/^[a-z][a-z0-9_]*$/)
    .default("req_"),
});

export const writeAcceptedLater = defineFault({
  schema,
  check(f, v, issue) {
    if (!v.writes.some((w) => w.name === f.write)) issue(["write"], `unknown write "${f.write}"`);
  },
  hooks: {
    defersWrite(f, s, write) {
      if (write.name !== f.write) return null;
      const calls = s.memo(f.id, () => ({ n: 0 }));
      calls.n += 1;
      return calls.n === f.nth ? { afterRequests: f.afterRequests, requestIdField: "request_id", requestIdPrefix: f.requestIdPrefix } : null;
    },
  },
});
