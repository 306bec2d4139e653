/**
 * @module faults/error-on-page
 * The first `times` requests for one page of a resource's list answer a 5xx:
 * a client should retry that page, not restart the crawl.
 */
import { z } from "zod";
import { defineFault, faultId, isListed } from "./define.ts";

const schema = z.object({
  kind: z.literal("error-on-page"),
  id: faultId,
  resource: z.string(),
  /** 0-based page index. */
  page: z.number().int().min(0),
  times: z.number().int().positive().default(1),
  status: z.number().int().min(500).max(599).default(500),
});

export const errorOnPage = defineFault({
  schema,
  check(f, v, issue) {
    const r = v.resources.find((x) => x.name === f.resource);
    if (r && !isListed(v, f.resource)) issue(["resource"], `"${f.resource}" has no list endpoint`);
  },
  hooks: {
    onListPage(f, s, page) {
      if (page.resource !== f.resource || page.page !== f.page) return null;
      const hits = s.memo(f.id, () => ({ n: 0 }));
      if (hits.n >= f.times) return null;
      hits.n += 1;
      return s.error(f.status, "internal_error", "the server could not complete the request");
    },
  },
});
