/**
 * @module lies/param-name
 * The docs give a query parameter another name.
 */
import { z } from "zod";
import { pagingStyle } from "../paging/index.ts";
import { defineLie, inScope, lieCommon, targets } from "./define.ts";
import { realParams } from "./vendor-facts.ts";

const schema = z.object({ kind: z.literal("param-name"), ...lieCommon, param: z.string(), says: z.string(), resource: z.string().optional() });

export const paramName = defineLie({
  schema,
  problem(v, lie) {
    const real = realParams(v, lie.resource);
    if (!real.has(lie.param)) return `"${lie.param}" is not a parameter the vendor honours`;
    if (real.has(lie.says) || lie.says === lie.param) return `"${lie.says}" is a real parameter, so the docs would not be wrong`;
    return null;
  },
  tell(m, lie) {
    if (!lie.resource) {
      pagingStyle(m.paging).renameParam(m.paging, lie.param, lie.says);
      if (m.paging.sortRequired?.param === lie.param) m.paging.sortRequired.param = lie.says;
      if (m.incremental?.param === lie.param) m.incremental.param = lie.says;
    }
    for (const r of targets(m, lie.resource)) {
      if (!r.list) continue;
      pagingStyle(r.list.paging).renameParam(r.list.paging, lie.param, lie.says);
      if (r.list.paging.sortRequired?.param === lie.param) r.list.paging.sortRequired.param = lie.says;
      for (const p of r.list.params) if (p.name === lie.param) p.name = lie.says;
      for (const f of r.fields) if (f.onlyWith?.param === lie.param) f.onlyWith.param = lie.says;
    }
  },
  areas: { openapi: /^paths\..*\.parameters\./, pages: /^(resource-|syncing|pagination)/ },
  touches: (lie, f) => f.route === "list" && inScope(f, lie.resource),
});
