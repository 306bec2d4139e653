/**
 * @module faults/accepted-write-refused
 * An accepted write (`Write.accepted`, answered 202) to one of the named
 * records is turned down when it comes to land: the record is left as it is
 * and the vendor announces the refusal with the write's `refusedOp` event
 * (`interview.reschedule_failed`), which carries the request id and an
 * `error` object. A client that waits only for the confirming event waits
 * for ever; one that takes any event carrying its request id as the
 * confirmation reports a change that never happened.
 */
import { z } from "zod";
import { defineFault, faultId } from "./define.ts";

const schema = z.object({
  kind: z.literal("accepted-write-refused"),
  id: faultId,
  /** The accepted write refused. */
  write: z.string(),
  /** Ids of the records whose accepted writes are refused (every one of them, each time). */
  recordIds: z.array(z.string().min(1)).min(1),
  /** The refusal's `error.code`. */
  code: z.string().regex(/^[a-z][a-z_]*$/),
  /** The refusal's `error.message`, the vendor's words. */
  message: z.string().min(1),
});

export const acceptedWriteRefused = defineFault({
  schema,
  check(f, v, issue) {
    const w = v.writes.find((x) => x.name === f.write);
    if (w && !w.accepted?.refusedOp) issue(["write"], `write "${f.write}" declares no accepted.refusedOp to announce a refusal with`);
  },
  hooks: {
    onLanding(f, _s, landing) {
      return landing.write === f.write && f.recordIds.includes(landing.recordId) ? { code: f.code, message: f.message } : null;
    },
  },
});
