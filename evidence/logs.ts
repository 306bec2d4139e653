/**
 * @module logs
 * The vendor's logs as evidence: the rows of the request, token and webhook
 * delivery logs. Written by the world objects, sealed into runs, read by
 * judges and conduct checks; defined here once for all of them.
 */

/** Why a logged body is not the body as sent. */
export type BodyNote = "truncated" | "too_deep" | "not_utf8";

/** How a request's credentials fared. */
export type AuthOutcome = "ok" | "expired" | "invalid" | "missing";

/** One row of the request log, as the control plane serves it. */
export interface RequestLogEntry {
  seq: number;
  epoch: number;
  /** Real arrival time, seconds with ms precision. */
  ts: number;
  method: string;
  path: string;
  /** Query parameters, full values (a repeated key keeps its last value). */
  query: Record<string, string>;
  /** Header names lower-cased, secret values redacted. */
  headers: Record<string, string>;
  /** Parsed body (full values), raw text when unparseable, null when absent; see `bodyNote`. */
  body: unknown;
  /** Size of the body as sent, in bytes (0 when absent). */
  bodyBytes: number;
  /** Why `body` is not the body as sent: cut to the log's limit, nested too deep to parse, or not UTF-8 (kept as decoded text). */
  bodyNote: BodyNote | null;
  /** SHA-256 (hex) of the body as sent, whenever `body` does not hold all of it verbatim. */
  bodySha256: string | null;
  status: number;
  authOutcome: AuthOutcome;
  rateLimited: boolean;
  retryAfter: number | null;
  idempotencyKey: string | null;
  /** Ids of the faults that shaped the response. */
  faults: string[];
  /** Ids of the documentation lies this request touched. */
  lies: string[];
  /** Set when the full row could not be stored and this stand-in was stored instead. */
  logError?: string;
}

/** One row of the token log. */
export interface TokenLogEntry {
  seq: number;
  epoch: number;
  ts: number;
  kind: string;
  route: string;
  expiresIn: number | null;
}

/** One webhook delivery attempt, as the delivery log serves it. */
export interface DeliveryLogEntry {
  seq: number;
  epoch: number;
  ts: number;
  eventId: string;
  attempt: number;
  target: string;
  /** Status the receiver answered, or null when it did not answer. */
  responseCode: number | null;
  /** Same as responseCode (the predecessor's scenarios read this name). */
  statusCode: number | null;
  tampered: boolean;
  skewS: number;
  duplicate: boolean;
  /** `direct` (the farm fetched the target) or `relay` (a harness delivered it from the outbox). */
  via: "direct" | "relay";
  /** Ack-body vendors: whether the answer acknowledged the event; null for vendors without the protocol. */
  acked: boolean | null;
}
