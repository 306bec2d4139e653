/**
 * @module incremental/updated-since
 * `?modified_since=<time>`: records whose updated-at field is after (or at)
 * the watermark, in the vendor's own time format.
 */
import { z } from "zod";
import { defineIncremental } from "./define.ts";

const schema = z.object({
  style: z.literal("updated-since"),
  /** Query parameter carrying the watermark. */
  param: z.string(),
  /** `>=` returns records changed at or after the watermark; `>` strictly after. */
  op: z.enum([">", ">="]),
  /** Field compared with the watermark (an `updatedAt` field of each incremental resource). */
  field: z.string(),
});

export const updatedSince = defineIncremental({
  schema,
  param: (inc) => inc.param,
  read(inc, raw, parseTime, format) {
    const ms = parseTime(raw);
    if (ms === null) return { ok: false, message: `${inc.param} must be a timestamp: ${format}` };
    return { ok: true, since: { ms, inclusive: inc.op === ">=" } };
  },
  checkResource(inc, r) {
    return r.fields.some((f) => f.name === inc.field && f.gen.gen === "updatedAt") ? null : `incremental field "${inc.field}" must be an updatedAt field of "${r.name}"`;
  },
  docs: {
    describe: (inc) => `Only records changed ${inc.op === ">=" ? "at or after" : "strictly after"} this time.`,
  },
});
