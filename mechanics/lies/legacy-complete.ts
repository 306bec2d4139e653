/**
 * @module lies/legacy-complete
 * The docs present a resource's older list as a full equivalent of the
 * current one, saying nothing of where it stops: a client that keeps using it
 * silently misses every record past the cap.
 */
import { z } from "zod";
import { defineLie, inScope, lieCommon, targets } from "./define.ts";

const schema = z.object({ kind: z.literal("legacy-complete"), ...lieCommon, resource: z.string() });

export const legacyComplete = defineLie({
  schema,
  problem(v, lie) {
    const r = v.resources.find((x) => x.name === lie.resource)!;
    return r.legacyList?.truncateAt ? null : `${lie.resource} has no older list that stops early`;
  },
  tell(m, lie) {
    for (const r of targets(m, lie.resource)) if (r.legacyList) r.legacyList = { path: r.legacyList.path };
  },
  touches: (lie, f) => f.route === "list" && inScope(f, lie.resource),
  areas: { openapi: /^paths\..*\.(description|summary|deprecated)$/, pages: /^resource-/ },
});
