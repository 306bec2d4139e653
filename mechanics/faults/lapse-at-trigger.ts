/**
 * @module faults/lapse-at-trigger
 * At the trigger the `count` oldest live records of a resource whose `field`
 * holds `from` move to `to` by themselves (offers that lapsed unanswered, say),
 * their update stamps set to the moment it happened. Lists and reads show the
 * new value from then on.
 */
import { z } from "zod";
import { afterRequests, defineFault, faultId } from "./define.ts";

const schema = z.object({
  kind: z.literal("lapse-at-trigger"),
  id: faultId,
  ...afterRequests,
  resource: z.string(),
  field: z.string(),
  from: z.string(),
  to: z.string(),
  count: z.number().int().positive(),
});

export const lapseAtTrigger = defineFault({
  schema,
  check(f, v, issue) {
    const r = v.resources.find((x) => x.name === f.resource);
    if (!r) issue(["resource"], `no resource "${f.resource}"`);
    else if (!r.fields.some((x) => x.name === f.field)) issue(["field"], `"${f.resource}" has no field "${f.field}"`);
  },
  hooks: {
    oneShot(f, world) {
      world.lapse(f.resource, f.field, f.from, f.to, f.count);
    },
  },
});
