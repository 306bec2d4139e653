/**
 * @module lies/embed-complete
 * The docs present an embedded array as every child of the record, saying
 * nothing of where it is cut off or of the flag that says so: a client that
 * trusts it never reads the child list and misses every child past the cap.
 */
import { z } from "zod";
import { defineLie, inScope, lieCommon, targets } from "./define.ts";

const schema = z.object({
  kind: z.literal("embed-complete"),
  ...lieCommon,
  resource: z.string(),
  /** The embedded array the docs call complete. */
  field: z.string(),
});

export const embedComplete = defineLie({
  schema,
  problem(v, lie) {
    const r = v.resources.find((x) => x.name === lie.resource)!;
    return r.embeds?.some((e) => e.field === lie.field) ? null : `${lie.resource} embeds no "${lie.field}"`;
  },
  tell(m, lie) {
    for (const r of targets(m, lie.resource)) {
      const e = r.embeds?.find((x) => x.field === lie.field);
      if (!e) continue;
      delete e.limit;
      delete e.flag;
    }
  },
  areas: { openapi: /^(components\.schemas\.|paths\..*\.example)/, pages: /^resource-/ },
  touches: (lie, f) => (f.route === "list" || f.route === "get") && inScope(f, lie.resource),
});
