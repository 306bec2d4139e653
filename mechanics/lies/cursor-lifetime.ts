/**
 * @module lies/cursor-lifetime
 * The docs give cursors a longer life than the API does: they say a cursor
 * works for many more requests after the page that issued it, so a client may
 * keep it (between pages, or between runs) where the API has long expired it.
 */
import { z } from "zod";
import { defineLie, inScope, lieCommon, targets } from "./define.ts";

const schema = z.object({ kind: z.literal("cursor-lifetime"), ...lieCommon, says: z.number().int().positive(), resource: z.string().optional() });

/** The request lifetime of a paging object, when its style has one (cursors that expire). */
function lifetime(p: { style: string } & Record<string, unknown>): number | undefined {
  return typeof p.ttlRequests === "number" ? p.ttlRequests : undefined;
}

export const cursorLifetime = defineLie({
  schema,
  problem(v, lie) {
    const r = lie.resource ? v.resources.find((x) => x.name === lie.resource) : undefined;
    const real = lifetime(r?.paging ?? v.paging);
    if (real === undefined) return "its cursors do not expire after a number of requests";
    return lie.says <= real ? "the docs would give cursors no longer a life than they have" : null;
  },
  tell(m, lie) {
    for (const p of [lie.resource ? undefined : m.paging, ...targets(m, lie.resource).map((r) => r.list?.paging)])
      if (p && lifetime(p) !== undefined) (p as { ttlRequests?: number }).ttlRequests = lie.says;
  },
  areas: { openapi: /^paths\..*\.(parameters|responses)\./, pages: /^(resource-|pagination)/ },
  touches: (lie, f) => f.route === "list" && inScope(f, lie.resource),
});
