/**
 * @module lies/defect-hidden
 * The docs say nothing of a list's known defect (records skipped at page
 * boundaries): a client that trusts the current version silently misses the
 * records between its pages, where the older version would have served them.
 */
import { z } from "zod";
import { defineLie, inScope, lieCommon, targets } from "./define.ts";

const schema = z.object({ kind: z.literal("defect-hidden"), ...lieCommon, resource: z.string() });

export const defectHidden = defineLie({
  schema,
  problem(v, lie) {
    const r = v.resources.find((x) => x.name === lie.resource)!;
    return r.skipsAtPageBoundary ? null : `${lie.resource}'s list has no known defect to hide`;
  },
  tell(m, lie) {
    for (const r of targets(m, lie.resource)) if (r.list) delete r.list.skipsAtPageBoundary;
  },
  touches: (lie, f) => f.route === "list" && inScope(f, lie.resource),
  areas: { openapi: /^paths\..*\.(description|x-wirebench-known-issue)$/, pages: /^resource-/ },
});
