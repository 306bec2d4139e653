/**
 * @module faults/stale-read
 * After the trigger, single-record reads of a resource are served from a
 * cache (`Age`, `Warning: 110`) unless the request revalidates
 * (`Cache-Control: no-cache` or `max-age=0`, or `If-None-Match`).
 */
import { z } from "zod";
import { afterRequests, defineFault, faultId } from "./define.ts";

const schema = z.object({ kind: z.literal("stale-read"), id: faultId, ...afterRequests, resource: z.string() });

/**
 * The first answer to each record, keyed `r:<id>`: plain data, as every memo is (the runtime keeps
 * memos as JSON across an eviction, which a Map would not survive), and the prefix keeps a record id
 * such as `__proto__` an ordinary key.
 */
type ReadCache = Record<string, { body: unknown; etag: string; atMs: number }>;
const key = (id: string) => `r:${id}`;

export const staleRead = defineFault({
  schema,
  hooks: {
    onRead(f, s, read) {
      if (read.resource !== f.resource || !s.reached(f) || read.noCache) return null;
      const hit = s.memo<ReadCache>(f.id, () => ({}))[key(read.id)];
      if (!hit) return null;
      const ageS = Math.max(0, Math.floor((read.nowMs - hit.atMs) / 1000));
      return { status: 200, body: hit.body, headers: { etag: hit.etag, age: String(ageS), warning: '110 - "Response is stale"' } };
    },
    afterRead(f, s, read) {
      if (read.resource !== f.resource) return;
      const cache = s.memo<ReadCache>(f.id, () => ({}));
      cache[key(read.id)] ??= { body: read.body, etag: read.etag, atMs: read.nowMs };
    },
  },
});
