/**
 * @module faults
 * The registry of fault kinds: the only list of them. Hooks run in this
 * order within a stage (so maintenance answers before a forced 429 window,
 * and both before a delay).
 */
import { acceptedWriteRefused } from "./accepted-write-refused.ts";
import { authSunset } from "./auth-sunset.ts";
import { connectionReset } from "./connection-reset.ts";
import { cursorInvalidated } from "./cursor-invalidated.ts";
import { type FaultKind, kindOf } from "./define.ts";
import { errorAfterCommit } from "./error-after-commit.ts";
import { errorOnPage } from "./error-on-page.ts";
import { exportNotReady } from "./export-not-ready.ts";
import { maintenance } from "./maintenance.ts";
import { multiStatusPhantom } from "./multi-status-phantom.ts";
import { pageDrift } from "./page-drift.ts";
import { pairedWriteFails } from "./paired-write-fails.ts";
import { payloadTooLarge } from "./payload-too-large.ts";
import { rateLimitWindow } from "./rate-limit-window.ts";
import { lapseOnUpdate } from "./lapse-on-update.ts";
import { lapseAtTrigger } from "./lapse-at-trigger.ts";
import { schemaChange } from "./schema-change.ts";
import { slow } from "./slow.ts";
import { staleRead } from "./stale-read.ts";
import { tokenAging } from "./token-aging.ts";
import { tokenRevoked } from "./token-revoked.ts";
import { webhookDrop } from "./webhook-drop.ts";
import { webhookDuplicates } from "./webhook-duplicates.ts";
import { webhookLateVersion } from "./webhook-late-version.ts";
import { webhookOutOfOrder } from "./webhook-out-of-order.ts";
import { webhookStale } from "./webhook-stale.ts";
import { webhookTamper } from "./webhook-tamper.ts";
import { writeAcceptedLater } from "./write-accepted-later.ts";
import type { z } from "zod";
import { unionOf } from "../kit/union.ts";

export const FAULT_KINDS = [
  tokenRevoked,
  tokenAging,
  cursorInvalidated,
  pageDrift,
  maintenance,
  rateLimitWindow,
  slow,
  authSunset,
  errorOnPage,
  exportNotReady,
  staleRead,
  schemaChange,
  payloadTooLarge,
  errorAfterCommit,
  webhookDrop,
  webhookDuplicates,
  webhookTamper,
  webhookStale,
  webhookOutOfOrder,
  webhookLateVersion,
  connectionReset,
  multiStatusPhantom,
  pairedWriteFails,
  lapseOnUpdate,
  acceptedWriteRefused,
  lapseAtTrigger,
  writeAcceptedLater,
] as const;

const BY_KIND = new Map<string, FaultKind>(FAULT_KINDS.map((k) => [kindOf(k as unknown as FaultKind), k as unknown as FaultKind]));

/** The module of a declared fault's kind. */
export function faultKind(kind: string): FaultKind {
  const k = BY_KIND.get(kind);
  if (!k) throw new Error(`unknown fault kind "${kind}"`);
  return k;
}

/** Registry position of a kind: the order its hooks run in. */
export function faultOrder(kind: string): number {
  return FAULT_KINDS.findIndex((k) => kindOf(k as unknown as FaultKind) === kind);
}

/** Conduct checks the fault kinds bring, in registry order. */
export const FAULT_CONDUCT = FAULT_KINDS.flatMap((k) => (k as FaultKind).conduct ?? []);

/** A fault a vendor declares: the union of every module's schema in this registry, by `kind`. */
export const Fault = unionOf("kind", FAULT_KINDS);
export type Fault = z.infer<typeof Fault>;
