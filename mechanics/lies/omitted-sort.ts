/**
 * @module lies/omitted-sort
 * The docs leave out the sort a list needs for stable pages: a client that
 * follows them gets the first page again and again.
 */
import { z } from "zod";
import { defineLie, inScope, lieCommon, targets } from "./define.ts";

const schema = z.object({ kind: z.literal("omitted-sort"), ...lieCommon, resource: z.string().optional() });

export const omittedSort = defineLie({
  schema,
  problem(v, lie) {
    const lists = v.resources.filter((r) => r.list && (!lie.resource || r.name === lie.resource));
    return lists.some((r) => (r.paging ?? v.paging).sortRequired) ? null : "no list it names needs a sort for stable pages";
  },
  tell(m, lie) {
    if (!lie.resource) delete m.paging.sortRequired;
    for (const r of targets(m, lie.resource)) if (r.list) delete r.list.paging.sortRequired;
  },
  areas: { openapi: /^paths\..*\.(parameters|responses)\./, pages: /^(resource-|pagination)/ },
  touches: (lie, f) => f.route === "list" && inScope(f, lie.resource),
});
