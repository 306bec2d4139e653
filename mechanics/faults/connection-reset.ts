/**
 * @module faults/connection-reset
 * `count` responses after the trigger are cut off mid-body: the status line
 * and headers arrive, then the connection drops after half the body (or
 * `keepBytes`). A client must treat the read as failed and retry it. With
 * `only`, a route template (`/v2/exports/:id/file`, `:name` matching one path
 * segment), only answers to requests on that route are cut: the others pass
 * and use up none of `count`.
 */
import { z } from "zod";
import { afterRequests, defineFault, faultId } from "./define.ts";

const schema = z.object({
  kind: z.literal("connection-reset"),
  id: faultId,
  ...afterRequests,
  count: z.number().int().positive().default(1),
  /** Body bytes sent before the connection drops; half the body when absent. */
  keepBytes: z.number().int().min(0).optional(),
  /** Cut only answers to requests whose path matches this route template (`:name` matches one segment). */
  only: z.string().startsWith("/").optional(),
});

/** Whether a request path matches a route template, segment by segment (a trailing slash allowed, as the router allows it). */
export function onRoute(template: string, path: string): boolean {
  const want = template.split("/");
  const got = path
    .split("?")[0]
    .replace(/(.)\/$/, "$1")
    .split("/");
  return want.length === got.length && want.every((seg, i) => (seg.startsWith(":") ? got[i] !== "" : seg === got[i]));
}

export const connectionReset = defineFault({
  schema,
  hooks: {
    onRespond(f, s, response) {
      if (!s.reached(f) || (f.only !== undefined && !onRoute(f.only, response.path)) || !s.takeOne(f.id, f.count)) return null;
      return { cutAfterBytes: Math.min(f.keepBytes ?? Math.floor(response.bodyBytes / 2), Math.max(0, response.bodyBytes - 1)) };
    },
  },
});
