/**
 * @module faults/page-drift
 * At the trigger the `inserts` newest records of a resource move to the head
 * of its list, shifting every offset by that many (as if they had just been
 * added): a crawl by offset sees some records twice and misses others.
 */
import { z } from "zod";
import { afterRequests, defineFault, faultId, isListed } from "./define.ts";

const schema = z.object({ kind: z.literal("page-drift"), id: faultId, ...afterRequests, resource: z.string(), inserts: z.number().int().positive() });

export const pageDrift = defineFault({
  schema,
  check(f, v, issue) {
    const r = v.resources.find((x) => x.name === f.resource);
    if (r && !isListed(v, f.resource)) issue(["resource"], `"${f.resource}" has no list endpoint`);
  },
  hooks: {
    oneShot(f, world) {
      world.driftToHead(f.resource, f.inserts);
    },
  },
});
