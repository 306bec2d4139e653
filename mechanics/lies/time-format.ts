/**
 * @module lies/time-format
 * The docs give timestamps in another format.
 */
import { z } from "zod";
import { TIME_FORMAT_NAMES } from "../time-formats/index.ts";
import { defineLie, isRead, lieCommon } from "./define.ts";

const schema = z.object({ kind: z.literal("time-format"), ...lieCommon, says: z.enum(TIME_FORMAT_NAMES) });

export const timeFormat = defineLie({
  schema,
  problem: (v, lie) => (lie.says === v.clock.format ? "that is the real time format" : null),
  tell(m, lie) {
    m.timeFormat = lie.says;
  },
  // Timestamps also show in inline response schemas (a deletion feed's deletion time).
  areas: { openapi: /^(components\.schemas\.|paths\..*\.example|paths\..*\.responses\..*\.format$)/, pages: /^(resource-|syncing|index)/ },
  touches: (_lie, f) => isRead(f) || f.route === "write",
});
