/**
 * @module faults/token-aging
 * Time passes for tokens faster than a run lasts: from the trigger on, every
 * `everyRequests` requests age the vendor's token clock by `seconds`, as if
 * that much time had gone by. Access tokens expire and refresh-token chains
 * reach their end within one run, the way they would over a night of work,
 * so an expiry policy (sliding or absolute) shows in a single crawl.
 */
import { z } from "zod";
import { defineFault, faultId } from "./define.ts";

const schema = z.object({
  kind: z.literal("token-aging"),
  id: faultId,
  /** Requests served in the epoch before the first step. */
  afterRequests: z.number().int().min(0),
  everyRequests: z.number().int().positive(),
  seconds: z.number().int().positive(),
});

export const tokenAging = defineFault({
  schema,
  hooks: {
    tokenClockS(f, s) {
      const n = s.requestsBefore();
      return n < f.afterRequests ? 0 : f.seconds * (Math.floor((n - f.afterRequests) / f.everyRequests) + 1);
    },
  },
});
