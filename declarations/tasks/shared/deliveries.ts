/**
 * @module shared/deliveries
 * Judging a listener from the vendor's webhook delivery log: which attempts a
 * correct receiver must take in (authentic), and the two answers the tickets
 * ask for (2xx for what it took in, 4xx for a forgery or a stale replay).
 */
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { DeliveryLogEntry } from "../../../evidence/logs.ts";
import type { CheckBasis, ScenarioEvidence } from "../../../evidence/verdict.ts";
import { answered2xx } from "../../../evidence/conduct.ts";

export { answered2xx };

/** One webhook delivery attempt as the vendor logged it. */
export type Delivery = DeliveryLogEntry;

/** The delivery attempts of a role in a scenario's evidence, in log order (none without a listener). */
export function deliveries(e: ScenarioEvidence, role: string): Delivery[] {
  return e.webhooks[role] ?? [];
}

/** A delivery a correct receiver must accept: a genuine signature inside the timestamp window. */
export function authentic(d: Delivery, maxSkewS: number): boolean {
  return !d.tampered && Math.abs(d.skewS) <= maxSkewS;
}

/** Ids of the events delivered authentically at least once. */
export function authenticEvents(log: Delivery[], maxSkewS: number): Set<string> {
  return new Set(log.filter((d) => authentic(d, maxSkewS)).map((d) => d.eventId));
}

/** The ticket sentences the two delivery checks rest on. */
export interface DeliveryBases {
  /** For `authentic_deliveries_acknowledged`: take in a genuine delivery with a 2xx. */
  acknowledged: CheckBasis;
  /** For `refusals_answered_4xx`: refuse a forged or stale one with a 4xx. */
  refused: CheckBasis;
}

/**
 * Two l2 checks on the answers a listener gave (each recorded only when its
 * deliveries exist): `authentic_deliveries_acknowledged`, every authentic
 * attempt answered 2xx; `refusals_answered_4xx`, every forged or stale attempt
 * that got an answer answered 4xx.
 */
export function deliveryChecks(c: CheckRecorder, log: Delivery[], maxSkewS: number, bases: DeliveryBases): void {
  const genuine = log.filter((d) => authentic(d, maxSkewS));
  if (genuine.length) {
    const refused = genuine.filter((d) => !answered2xx(d.responseCode));
    c.check("authentic_deliveries_acknowledged", refused.length === 0, {
      basis: bases.acknowledged,
      level: "l2",
      detail: refused.length
        ? `${refused.length} of ${genuine.length} authentic deliveries answered ${[...new Set(refused.map((d) => d.responseCode))].join("/")} (first ${refused[0].eventId})`
        : `${genuine.length} authentic deliveries answered 2xx`,
    });
  }
  const bogus = log.filter((d) => !authentic(d, maxSkewS) && d.responseCode !== null);
  if (bogus.length) {
    const not4xx = bogus.filter((d) => !(d.responseCode! >= 400 && d.responseCode! < 500));
    c.check("refusals_answered_4xx", not4xx.length === 0, {
      basis: bases.refused,
      level: "l2",
      detail: not4xx.length
        ? `${not4xx.length} of ${bogus.length} forged or stale deliveries answered ${[...new Set(not4xx.map((d) => d.responseCode))].join("/")}`
        : `${bogus.length} forged or stale deliveries answered 4xx`,
    });
  }
}
