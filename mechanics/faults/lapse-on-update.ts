/**
 * @module faults/lapse-on-update
 * A record moves on by itself just before a client's update reaches it: the
 * `nth` call of an update write (counted in the epoch) on a record whose
 * `field` holds `from` finds it lapsed. The record's `field` becomes `to` (a
 * real change: it lists and reads that way from then on) and the call is
 * refused (with `olderThan`, only a record stamped before an instant lapses:
 * an offer made months ago, not one made a moment ago). Every later call of that write on a record at `to` is refused the
 * same way, so retrying the refused call never succeeds: a client must read
 * the refusal's code and do what the vendor documents (an expired offer is
 * offered again, as a new offer).
 */
import { z } from "zod";
import { defineFault, faultId } from "./define.ts";

const schema = z.object({
  kind: z.literal("lapse-on-update"),
  id: faultId,
  /** The update write whose call finds its record lapsed. */
  write: z.string(),
  /** The field that moves, and the values it moves from and to. */
  field: z.string(),
  from: z.string(),
  to: z.string(),
  /** Only records whose timestamp `field` is earlier than `at` lapse (an offer made long ago, not one made a moment ago). */
  olderThan: z.object({ field: z.string(), at: z.string().refine((v) => Number.isFinite(Date.parse(v)), "an ISO 8601 instant") }).optional(),
  /** Which call of `write` on a record at `from` (1-based, across the epoch) finds it lapsed. */
  nth: z.number().int().positive().default(1),
  /** Status of the refusal. */
  status: z.union([z.literal(409), z.literal(410), z.literal(422)]).default(409),
  /** Error code of the refusal. */
  code: z.string().regex(/^[a-z][a-z_]*$/),
  /** Error message of the refusal. */
  message: z.string().min(1),
});

/** A stored timestamp (epoch ms or an ISO 8601 string) in ms, NaN when it is neither. */
function stampMs(v: unknown): number {
  return typeof v === "number" ? v : typeof v === "string" ? Date.parse(v) : Number.NaN;
}

export const lapseOnUpdate = defineFault({
  schema,
  check(f, v, issue) {
    if (!v.writes.some((w) => w.name === f.write)) issue(["write"], `unknown write "${f.write}"`);
    if (!v.resources.some((r) => r.fields.some((x) => x.name === f.field))) issue(["field"], `no resource has a field "${f.field}"`);
    if (f.from === f.to) issue(["to"], "a lapse moves the field to another value");
    if (f.olderThan && !v.resources.some((r) => r.fields.some((x) => x.name === f.olderThan!.field))) issue(["olderThan", "field"], `no resource has a field "${f.olderThan.field}"`);
  },
  hooks: {
    beforeUpdate(f, s, update) {
      if (update.write !== f.write) return null;
      const value = update.record[f.field];
      if (value === f.to) return { reply: s.error(f.status, f.code, f.message) };
      if (value !== f.from) return null;
      if (f.olderThan && !(stampMs(update.record[f.olderThan.field]) < Date.parse(f.olderThan.at))) return null;
      const calls = s.memo(f.id, () => ({ n: 0 }));
      calls.n += 1;
      return calls.n === f.nth ? { reply: s.error(f.status, f.code, f.message), set: { [f.field]: f.to } } : null;
    },
  },
});
