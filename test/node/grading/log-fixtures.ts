import staffline from "../../../declarations/vendors/staffline.ts";
import talentforge from "../../../declarations/vendors/talentforge.ts";
import type { Vendor } from "../../../declarations/schema/vendor.ts";
import type { RequestLogEntry, TokenLogEntry } from "../../../evidence/logs.ts";
import type { ConductContext, DeliveryRow } from "../../../workers/grading/conduct/context.ts";

let seq = 0;

/** A request-log row with sensible defaults; override what the case is about. */
export function req(over: Partial<RequestLogEntry>): RequestLogEntry {
  seq += 1;
  return {
    seq,
    epoch: 0,
    ts: seq,
    method: "GET",
    path: "/svc/candidates",
    query: {},
    headers: {},
    body: null,
    bodyBytes: 0,
    bodyNote: null,
    bodySha256: null,
    status: 200,
    authOutcome: "ok",
    rateLimited: false,
    retryAfter: null,
    idempotencyKey: null,
    faults: [],
    lies: [],
    ...over,
  };
}

export function token(over: Partial<TokenLogEntry>): TokenLogEntry {
  seq += 1;
  return { seq, epoch: 0, ts: seq, kind: "access_token", route: "client_credentials", expiresIn: 600, ...over };
}

export function delivery(over: Partial<DeliveryRow>): DeliveryRow {
  return { eventId: "evt_1", attempt: 1, responseCode: 200, tampered: false, skewS: 0, duplicate: false, ts: 1, ...over };
}

export const SECRET = "slat_0123456789abcdef";

export function ctx(over: Partial<ConductContext> & { vendor?: Vendor } = {}): ConductContext {
  return { vendor: staffline, requests: [], tokens: [], webhooks: [], secrets: [SECRET], connectorRuns: 1, ...over };
}

export { staffline, talentforge };
