import { z } from "zod";

const id = z.string().regex(/^[a-z0-9][a-z0-9-]*$/);

/**
 * Fires once this many requests have been served in the epoch (counting only
 * requests to `path` when given): the next request is the first one affected.
 */
const AfterRequests = {
  afterRequests: z.number().int().min(0),
  /** Count only requests to this path (e.g. `/v1/candidates`). */
  path: z.string().startsWith("/").optional(),
};

/**
 * Something the vendor can do to a client mid-run. Declared here (what the
 * vendor can do), armed per scenario at recreate (what it does in this run).
 * Triggers count requests or checkpoints, or (maintenance) virtual seconds on
 * the Durable Object alarm; none depends on how fast the client is.
 */
export const Fault = z.discriminatedUnion("kind", [
  /** The nth successful call of a write commits, then answers a 5xx anyway. */
  z.object({ kind: z.literal("error-after-commit"), id, write: z.string(), nth: z.number().int().positive(), status: z.number().int().min(500).max(599).default(500) }),
  /** The first `times` requests for page `page` (0-based) of a resource's list answer a 5xx. */
  z.object({
    kind: z.literal("error-on-page"),
    id,
    resource: z.string(),
    page: z.number().int().min(0),
    times: z.number().int().positive().default(1),
    status: z.number().int().min(500).max(599).default(500),
  }),
  /** A rate-limit window opens: requests get 429 until `cooldownS` seconds have passed. */
  z.object({ kind: z.literal("rate-limit-window"), id, ...AfterRequests, cooldownS: z.number().int().positive(), retryAfter: z.enum(["seconds", "http-date", "body"]).default("seconds") }),
  /** Every token issued so far stops working (401, or an off-spec 403); new mints work. */
  z.object({ kind: z.literal("token-revoked"), id, ...AfterRequests, status: z.union([z.literal(401), z.literal(403)]).default(401) }),
  /** `count` requests get 503 with a long Retry-After; or, with `afterSeconds`, the alarm opens a window of `durationS`. */
  z.object({
    kind: z.literal("maintenance"),
    id,
    afterRequests: z.number().int().min(0).optional(),
    count: z.number().int().positive().default(1),
    afterSeconds: z.number().int().positive().optional(),
    durationS: z.number().int().positive().default(60),
    retryAfterS: z.number().int().positive().default(120),
  }),
  /** Cursors issued before the trigger are refused as expired. */
  z.object({ kind: z.literal("cursor-invalidated"), id, ...AfterRequests }),
  /** `count` responses are delayed by `delayMs`. */
  z.object({ kind: z.literal("slow"), id, ...AfterRequests, count: z.number().int().positive(), delayMs: z.number().int().positive().max(10_000) }),
  /** `inserts` new records appear at the head of a resource's list, shifting every offset. */
  z.object({ kind: z.literal("page-drift"), id, ...AfterRequests, resource: z.string(), inserts: z.number().int().positive() }),
  /** From a checkpoint on, a field is served under another name. */
  z.object({ kind: z.literal("schema-change"), id, resource: z.string(), field: z.string(), renameTo: z.string(), fromCheckpoint: z.number().int().min(0) }),
  /** Every `every`-th webhook event is delivered `copies` extra times (marked duplicate in the log). */
  z.object({ kind: z.literal("webhook-duplicates"), id, every: z.number().int().positive().default(1), copies: z.number().int().positive().default(2) }),
  /** The `nth` webhook event of the epoch (counting only events of `type` when given) is never delivered: recoverable only by polling. */
  z.object({ kind: z.literal("webhook-drop"), id, nth: z.number().int().positive(), type: z.string().optional() }),
  /** A batch of events is delivered in reverse order. */
  z.object({ kind: z.literal("webhook-out-of-order"), id }),
  /** After `afterEvents` events, `count` forged deliveries (bad signature) are injected. */
  z.object({ kind: z.literal("webhook-tamper"), id, afterEvents: z.number().int().min(0), count: z.number().int().positive().default(1) }),
  /** After `afterEvents` events, `count` deliveries signed with a timestamp `skewS` seconds old are injected. */
  z.object({ kind: z.literal("webhook-stale"), id, afterEvents: z.number().int().min(0), count: z.number().int().positive().default(1), skewS: z.number().int().positive().default(900) }),
  /** The legacy credential (`auth.legacy`) stops working: requests using it get 401 `legacy_auth_retired`. */
  z.object({ kind: z.literal("auth-sunset"), id, ...AfterRequests }),
  /** Single-record reads of a resource are served from a cache (`Age`, `Warning: 110`) unless the request says `Cache-Control: no-cache`. */
  z.object({ kind: z.literal("stale-read"), id, ...AfterRequests, resource: z.string() }),
  /** Bulk writes with more than `maxItems` items are refused with 413. */
  z.object({ kind: z.literal("payload-too-large"), id, write: z.string(), maxItems: z.number().int().positive() }),
]);
export type Fault = z.infer<typeof Fault>;
