import { z } from "zod";

/**
 * Something the vendor can do to a client mid-run. Declared here (what the
 * vendor can do), armed per scenario at recreate (what it does in this run).
 * Triggers count requests, never time, so verdicts do not depend on speed.
 */
export const Fault = z.discriminatedUnion("kind", [
  /** The nth successful call of a write commits, then answers a 5xx anyway. */
  z.object({
    kind: z.literal("error-after-commit"),
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
    write: z.string(),
    nth: z.number().int().positive(),
    status: z.number().int().min(500).max(599).default(500),
  }),
]);
export type Fault = z.infer<typeof Fault>;
