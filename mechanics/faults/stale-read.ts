/**
 * @module faults/stale-read
 * After the trigger, single-record reads of a resource are served from a
 * cache (`Age`, `Warning: 110`) unless the request revalidates
 * (`Cache-Control: no-cache` or `max-age=0`, or `If-None-Match`).
 */
import { z } from "zod";
import { afterRequests, defineFault, faultId } from "./define.ts";

const schema = z.object({ kind: z.literal("stale-read"), id: faultId, ...afterRequests, resource: z.string() });

type ReadCache = Map<string, { body: unknown; etag: string; atMs: number }>;

export const staleRead = defineFault({
  schema,
  hooks: {
    onRead(f, s, read) {
      if (read.resource !== f.resource || !s.reached(f) || read.noCache) return null;
      const hit = s.memo<ReadCache>(f.id, () => new Map()).get(read.id);
      if (!hit) return null;
      const ageS = Math.max(0, Math.floor((read.nowMs - hit.atMs) / 1000));
      return { status: 200, body: hit.body, headers: { etag: hit.etag, age: String(ageS), warning: '110 - "Response is stale"' } };
    },
    afterRead(f, s, read) {
      if (read.resource !== f.resource) return;
      const cache = s.memo<ReadCache>(f.id, () => new Map());
      if (!cache.has(read.id)) cache.set(read.id, { body: read.body, etag: read.etag, atMs: read.nowMs });
    },
  },
});
