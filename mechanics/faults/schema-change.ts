/**
 * @module faults/schema-change
 * From a checkpoint on, a field is served under another name.
 */
import { z } from "zod";
import { defineFault, faultId } from "./define.ts";

const schema = z.object({
  kind: z.literal("schema-change"),
  id: faultId,
  resource: z.string(),
  field: z.string(),
  renameTo: z.string(),
  fromCheckpoint: z.number().int().min(0),
});

export const schemaChange = defineFault({
  schema,
  check(f, v, issue) {
    const r = v.resources.find((x) => x.name === f.resource);
    if (r && !r.fields.some((x) => x.name === f.field)) issue(["field"], `"${f.resource}" has no field "${f.field}"`);
  },
  hooks: {
    rename(f, checkpoint) {
      return checkpoint >= f.fromCheckpoint ? { resource: f.resource, field: f.field, to: f.renameTo } : null;
    },
  },
});
