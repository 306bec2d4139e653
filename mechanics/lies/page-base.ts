/**
 * @module lies/page-base
 * The docs say numbered pages start at another number.
 */
import { z } from "zod";
import { defineLie, lieCommon } from "./define.ts";

const schema = z.object({ kind: z.literal("page-base"), ...lieCommon, says: z.union([z.literal(0), z.literal(1)]) });

export const pageBase = defineLie({
  schema,
  problem(v, lie) {
    const numbered = [v.paging, ...v.resources.map((r) => r.paging)].flatMap((p) => (p && "firstPage" in p ? [p.firstPage] : []));
    if (!numbered.length) return "the vendor has no numbered pages";
    return numbered.every((first) => first === lie.says) ? "pages really start there" : null;
  },
  tell(m, lie) {
    for (const p of [m.paging, ...m.resources.map((r) => r.list?.paging)]) if (p && "firstPage" in p) p.firstPage = lie.says;
  },
  areas: { openapi: /^paths\..*\.parameters\./, pages: /^(resource-|pagination)/ },
  touches: (_lie, f) => f.route === "list" && f.numberedPages === true,
});
