import type { Vendor } from "../../../declarations/schema/vendor.ts";
import type { RequestLogEntry, TokenLogEntry } from "../../../declarations/evidence/logs.ts";
import type { Check } from "../../../declarations/evidence/verdict.ts";

/** A webhook delivery attempt as logged (issue 5 fills these). */
export interface DeliveryRow {
  eventId: string;
  attempt: number;
  responseCode: number | null;
  tampered: boolean;
  skewS: number;
  duplicate: boolean;
  ts: number;
}

/** What a conduct check reads: one role's traffic in one scenario. */
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

/** Paths of token endpoints: credentials belong there, so leak checks skip them. */
export function mintPaths(vendor: Vendor): Set<string> {
  return new Set(vendor.auth.mints.map((m) => m.path));
}

/** Requests to the data plane (everything but token endpoints). */
export function dataPlane(ctx: ConductContext): RequestLogEntry[] {
  const mints = mintPaths(ctx.vendor);
  return ctx.requests.filter((r) => !mints.has(r.path));
}

/** A hard gate: mandatory, worth nothing when kept and -1 when broken. */
export function hardGate(name: string, ok: boolean, detail: string): Check {
  return { name, ok, detail, pass: 0, fail: -1, mandatory: true, level: "l2", value: ok ? 0 : -1 };
}

/** A soft conduct check: 1 when kept, 0 when broken. */
export function soft(name: string, ok: boolean, detail: string): Check {
  return { name, ok, detail, pass: 1, fail: 0, mandatory: false, level: "l2", value: ok ? 1 : 0 };
}
