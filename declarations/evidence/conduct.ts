/**
 * @module conduct
 * What a conduct check reads and returns: one role's traffic in one scenario,
 * and a check (or null when the traffic holds no evidence for it). Shared by
 * the grading's own checks and the mechanics that bring checks of their own.
 */
import type { Vendor } from "../schema/vendor.ts";
import type { RequestLogEntry, TokenLogEntry } from "./logs.ts";
import type { Check } from "./verdict.ts";

/** A webhook delivery attempt as conduct checks read it. */
export interface DeliveryRow {
  eventId: string;
  attempt: number;
  responseCode: number | null;
  tampered: boolean;
  skewS: number;
  duplicate: boolean;
  ts: number;
}

/** One role's traffic in one scenario. */
export interface ConductContext {
  vendor: Vendor;
  requests: RequestLogEntry[];
  tokens: TokenLogEntry[];
  webhooks: DeliveryRow[];
  /** Credential values and every token issued in the scenario's epochs. */
  secrets: string[];
  /** How many times the scenario ran the connector. */
  connectorRuns: number;
  /** Largest timestamp skew the vendor's webhook receivers must accept. */
  maxSkewS?: number;
}

/** A conduct check's result, or null when its evidence does not exist. */
export type ConductResult = Check | null;

/** A conduct check. */
export type ConductCheck = (ctx: ConductContext) => ConductResult;

/** Whether a receiver's answer was a 2xx (null: it did not answer). */
export function answered2xx(code: number | null): boolean {
  return code !== null && code >= 200 && code < 300;
}

/** A hard gate: mandatory, worth nothing when kept and -1 when broken. */
export function hardGate(name: string, ok: boolean, detail: string): Check {
  return { name, ok, detail, pass: 0, fail: -1, mandatory: true, level: "l2", value: ok ? 0 : -1 };
}

/** A soft conduct check: 1 when kept, 0 when broken. */
export function soft(name: string, ok: boolean, detail: string): Check {
  return { name, ok, detail, pass: 1, fail: 0, mandatory: false, level: "l2", value: ok ? 1 : 0 };
}
