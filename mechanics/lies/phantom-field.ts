/**
 * @module lies/phantom-field
 * The docs document a field that responses never carry.
 */
import { z } from "zod";
import { deleteFlagField } from "../deletes/index.ts";
import { defineLie, inScope, lieCommon, targets } from "./define.ts";

const schema = z.object({
  kind: z.literal("phantom-field"),
  ...lieCommon,
  resource: z.string(),
  field: z.string(),
  type: z.enum(["string", "integer", "boolean", "timestamp"]),
  description: z.string(),
});

function plausibleExample(type: string, timeMs: number): unknown {
  if (type === "integer") return 0;
  if (type === "boolean") return false;
  if (type === "timestamp") return timeMs;
  return "";
}

export const phantomField = defineLie({
  schema,
  problem(v, lie) {
    const r = v.resources.find((x) => x.name === lie.resource)!;
    if (r.fields.some((f) => f.name === lie.field) || deleteFlagField(v.deletes) === lie.field) return `"${lie.field}" really exists on ${lie.resource}`;
    return null;
  },
  tell(m, lie) {
    for (const r of targets(m, lie.resource)) {
      const someTime = r.fields.find((f) => f.type === "timestamp");
      const timeMs = Number(someTime ? (r.examples[0]?.data[someTime.name] ?? 0) : 0);
      r.fields.push({ name: lie.field, type: lie.type, description: lie.description, nullable: false, phantomExample: plausibleExample(lie.type, timeMs) });
    }
  },
  areas: { openapi: /^(components\.schemas\.|paths\..*\.example)/, pages: /^resource-/ },
  touches: (lie, f) => (f.route === "list" || f.route === "get") && inScope(f, lie.resource),
});
