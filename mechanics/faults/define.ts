/**
 * @module faults/define
 * The shape of a fault kind: its declaration schema, its checks against the
 * rest of the declaration, and the hooks through which it acts on the request
 * path, webhook deliveries and the alarm. One module per kind implements it;
 * `faults/index.ts` lists them.
 */
import { z } from "zod";
import type { ConductCheck } from "../../evidence/conduct.ts";
import type { Reply } from "../kit/reply.ts";

/** Fault ids: lower-case words joined by hyphens (`sl-page2-503`). */
export const faultId = z.string().regex(/^[a-z0-9][a-z0-9-]*$/);

/**
 * Fires once this many requests have been served in the epoch (counting only
 * requests to `path` when given): the next request is the first one affected.
 */
export const afterRequests = {
  afterRequests: z.number().int().min(0),
  /** Count only requests to this path (e.g. `/v1/candidates`). */
  path: z.string().startsWith("/").optional(),
};

/** A request-count trigger as the runtime reads it. */
export interface RequestTrigger {
  afterRequests?: number;
  path?: string;
}

/** What every hook may ask of the runtime holding the armed faults of one epoch. */
export interface FaultScope {
  /** Whether the request being served is past the fault's request-count trigger. */
  reached(f: RequestTrigger): boolean;
  /** Requests served in the epoch before the one being served. */
  requestsBefore(): number;
  /** Whether a one-shot fault has fired in this epoch. */
  fired(id: string): boolean;
  /** Marks a one-shot fault fired at the current request; false when it already had. */
  fireOnce(id: string): boolean;
  /** Request number a one-shot fault fired at, or null. */
  firedAt(id: string): number | null;
  /** Takes one of `count` uses of a fault; false once they are used up. */
  takeOne(id: string, count: number): boolean;
  /** Memory of one armed fault for the epoch (lost on eviction, like the vendor's caches). */
  memo<T>(id: string, init: () => T): T;
  /** Whether an alarm-timed window of the fault is open. */
  windowOpen(id: string): boolean;
  /** An error in the vendor's error shape. */
  error(status: number, code: string, message: string, extra?: Record<string, unknown>, headers?: Record<string, string>): Reply;
  /** A 429 in the given Retry-After style. */
  tooManyRequests(style: "seconds" | "http-date" | "body", seconds: number, nowMs: number): Reply;
}

/** What a fault may change in the world when its trigger is reached. */
export interface WorldEffects {
  /** Every token issued so far stops working. */
  revokeTokens(): void;
  /** The newest records of a resource move to the head of its list. */
  driftToHead(resource: string, inserts: number): void;
  /** The `count` oldest live records of a resource whose `field` holds `from` now hold `to` (updated now). */
  lapse(resource: string, field: string, from: string, to: string, count: number): void;
}

/** An answer given in place of the route's. */
export interface Refusal {
  reply: Reply;
  rateLimited?: boolean;
  /** Seconds the client is told to wait, for the log. */
  retryAfter?: number;
}

/** What a webhook fault does to the deliveries of one new event. */
export interface EventShaping {
  /** The event is never delivered. */
  drop?: boolean;
  /** Extra deliveries of the event (duplicates, forgeries, stale signatures). */
  extra?: { duplicate?: boolean; tampered?: boolean; skewS?: number }[];
  /** The record's previous version (an update's) is delivered late, as an event of its own, after this one. */
  lateVersion?: boolean;
}

/**
 * Hooks of one fault kind, each called with one armed fault of that kind.
 * Within a stage the runtime calls kinds in registry order, faults of a kind
 * in declaration order; where a hook answers, the first answer decides.
 */
export interface FaultHooks<F> {
  /** A one-shot fault's trigger was reached: change the world once. */
  oneShot?(f: F, world: WorldEffects): void;
  /** Before routing: answer in place of the route, or delay the answer. The first non-null result ends the stage. */
  beforeRoute?(f: F, s: FaultScope, req: { nowMs: number }): Refusal | { delayMs: number } | null;
  /** Seconds the vendor's token clock runs ahead of real time for this request (token lifetimes and mints see the sum). */
  tokenClockS?(f: F, s: FaultScope): number;
  /** Whether the vendor's legacy credential is retired for this request (asked only of vendors that have one). */
  retiresLegacy?(f: F, s: FaultScope): boolean;
  /** Auth refused the request: a fault may answer in its own way. */
  onAuthRefused?(f: F, s: FaultScope, req: { presentsRevoked(): boolean }): Reply | null;
  /** Cursors issued before this request number are refused as expired. */
  cursorCutoff?(f: F, s: FaultScope): number | null;
  /** A page of a resource's list is about to be served. */
  onListPage?(f: F, s: FaultScope, page: { resource: string; page: number }): Reply | null;
  /** The file of a ready export job is about to be served: true holds it back (the download answers as if the job were not ready). */
  holdsExportFile?(f: F, s: FaultScope, download: { export: string }): boolean;
  /** A field this fault serves under another name at a checkpoint. */
  rename?(f: F, checkpoint: number): { resource: string; field: string; to: string } | null;
  /** A single-record read: a fault may serve something else (a cached copy). */
  onRead?(f: F, s: FaultScope, read: { resource: string; id: string; noCache: boolean; nowMs: number }): Reply | null;
  /** A fresh single-record read was served (every fault is told). */
  afterRead?(f: F, s: FaultScope, read: { resource: string; id: string; body: unknown; etag: string; nowMs: number }): void;
  /** A write that passed validation is about to be applied: a bulk write with `items` items, a single write with 1. */
  beforeWrite?(f: F, s: FaultScope, write: { name: string; items: number }): Reply | null;
  /**
   * An update write that passed validation is about to change the record it names (`record`, its
   * stored fields): a fault may refuse it, and change the record's fields first (`set`).
   */
  beforeUpdate?(f: F, s: FaultScope, update: { write: string; resource: string; id: string; record: Record<string, unknown> }): { reply: Reply; set?: Record<string, unknown> } | null;
  /**
   * A single write that passed validation is about to be applied: a fault may take it for later
   * (answered `202`, stored after `afterRequests` further requests), as a declared `accepted` write is.
   */
  defersWrite?(f: F, s: FaultScope, write: { name: string }): { afterRequests: number; requestIdField: string; requestIdPrefix: string } | null;
  /** One item of a bulk write passed validation (every fault is told); `phantom` reports it created without storing it. */
  onBulkItem?(f: F, s: FaultScope, item: { write: string }): { phantom: true } | null;
  /** A write committed (every fault is told; the first answer replaces the write's). */
  afterCommit?(f: F, s: FaultScope, write: { name: string }): Reply | null;
  /** An accepted write is about to land on record `recordId`: a refusal (the write is not applied) or null. */
  onLanding?(f: F, s: FaultScope, landing: { write: string; recordId: string }): { code: string; message: string } | null;
  /** A new webhook event, the `n`-th of the epoch. */
  onEvent?(f: F, event: { type: string; n: number; nthOfType: (type: string) => number }): EventShaping | null;
  /** Reorders one batch of first deliveries. */
  reorderBatch?<J>(f: F, jobs: J[]): J[];
  /** Windows the alarm opens and closes, in seconds from the recreate. */
  timedWindows?(f: F): { openAfterS: number; closeAfterS: number }[];
  /** The response is on its way: cut the connection after this many body bytes. */
  onRespond?(f: F, s: FaultScope, response: { bodyBytes: number; path: string }): { cutAfterBytes: number } | null;
}

/** The parts of a declaration fault checks read (structural: declarations import this module). */
export interface FaultRefs {
  writes: { name: string; accepted?: { refusedOp?: string } }[];
  resources: { name: string; list?: string; fields: { name: string }[] }[];
  gateways?: { operations: { action: string; resource?: string }[] }[];
  exports?: { resources: { name: string }[] };
}

/** Whether a resource can be listed: by its list path or by a gateway operation. */
export function isListed(v: FaultRefs, resource: string): boolean {
  return Boolean(v.resources.find((r) => r.name === resource)?.list) || (v.gateways ?? []).some((g) => g.operations.some((o) => o.action === "list" && o.resource === resource));
}

/** Records a problem with the fault at `path` (relative to the fault). */
export type IssueFn = (path: (string | number)[], message: string) => void;

/** A fault kind: what it is declared as, what it checks, how it acts. */
export interface FaultKind<S extends z.ZodObject = z.ZodObject> {
  /** Declaration schema, `kind` a literal. */
  schema: S;
  /** Checks a declared fault against the rest of the declaration (references are checked generically). */
  check?(f: z.infer<S>, v: FaultRefs, issue: IssueFn): void;
  hooks: FaultHooks<z.infer<S>>;
  /** Conduct checks judged on evidence only this kind produces (run for every role's traffic; null without their evidence). */
  conduct?: ConductCheck[];
}

/** Declares a fault kind (identity, for inference). */
export function defineFault<S extends z.ZodObject>(kind: FaultKind<S>): FaultKind<S> {
  return kind;
}

/** The `kind` literal of a fault kind. */
export function kindOf(k: FaultKind): string {
  return (k.schema.shape.kind as z.ZodLiteral<string>).value;
}
