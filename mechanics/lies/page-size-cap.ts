/**
 * @module lies/page-size-cap
 * The docs give another maximum page size.
 */
import { z } from "zod";
import { defineLie, inScope, lieCommon, targets } from "./define.ts";

const schema = z.object({ kind: z.literal("page-size-cap"), ...lieCommon, says: z.number().int().positive(), resource: z.string().optional() });

export const pageSizeCap = defineLie({
  schema,
  problem(v, lie) {
    const r = lie.resource ? v.resources.find((x) => x.name === lie.resource) : undefined;
    return (r?.paging ?? v.paging).maxLimit === lie.says ? "that is the real cap" : null;
  },
  tell(m, lie) {
    for (const p of [lie.resource ? undefined : m.paging, ...targets(m, lie.resource).map((r) => r.list?.paging)]) if (p) p.maxLimit = lie.says;
  },
  areas: { openapi: /^paths\..*\.(parameters|responses)\./, pages: /^(resource-|pagination)/ },
  touches: (lie, f) => f.route === "list" && inScope(f, lie.resource),
});
