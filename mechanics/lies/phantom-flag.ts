/**
 * @module lies/phantom-flag
 * The docs document a query flag that does nothing.
 */
import { z } from "zod";
import { defineLie, inScope, lieCommon, targets } from "./define.ts";
import { realParams } from "./vendor-facts.ts";

const schema = z.object({ kind: z.literal("phantom-flag"), ...lieCommon, resource: z.string(), param: z.string(), description: z.string() });

export const phantomFlag = defineLie({
  schema,
  problem(v, lie) {
    const r = v.resources.find((x) => x.name === lie.resource)!;
    if (!r.list) return `${lie.resource} has no list endpoint`;
    return realParams(v, lie.resource).has(lie.param) ? `"${lie.param}" really does something` : null;
  },
  tell(m, lie) {
    for (const r of targets(m, lie.resource)) r.list?.params.push({ name: lie.param, role: "flag", value: "true", description: lie.description });
  },
  areas: { openapi: /^paths\..*\.parameters\./, pages: /^resource-/ },
  touches: (lie, f) => f.route === "list" && inScope(f, lie.resource),
});
