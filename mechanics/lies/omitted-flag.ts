/**
 * @module lies/omitted-flag
 * The docs leave out a flag that responses need (an `onlyWith` field's parameter).
 */
import { z } from "zod";
import { defineLie, inScope, lieCommon, targets } from "./define.ts";

const schema = z.object({ kind: z.literal("omitted-flag"), ...lieCommon, resource: z.string(), param: z.string() });

export const omittedFlag = defineLie({
  schema,
  problem(v, lie) {
    const r = v.resources.find((x) => x.name === lie.resource)!;
    return r.fields.some((f) => f.onlyWith?.param === lie.param) ? null : `no field of ${lie.resource} depends on "${lie.param}"`;
  },
  tell(m, lie) {
    for (const r of targets(m, lie.resource)) {
      if (r.list) r.list.params = r.list.params.filter((p) => p.name !== lie.param);
      for (const f of r.fields) if (f.onlyWith?.param === lie.param) delete f.onlyWith;
    }
  },
  areas: { openapi: /^(paths\..*\.parameters\.|components\.schemas\.)/, pages: /^resource-/ },
  touches: (lie, f) => (f.route === "list" || f.route === "get") && inScope(f, lie.resource),
});
