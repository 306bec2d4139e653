/**
 * @module conduct
 * What a conduct check reads and returns: one role's traffic in one scenario,
 * and a check (or null when the traffic holds no evidence for it). Shared by
 * the grading's own checks and the mechanics that bring checks of their own.
 */
import type { RequestLogEntry, TokenLogEntry } from "./logs.ts";
import type { Check, CheckBasis } from "./verdict.ts";

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

/**
 * The parts of a vendor every conduct check may read. Structural: the evidence
 * contract is the bottom layer, so it names no declaration; the grading fills
 * `ConductContext` with the whole `Vendor` (`workers/grading/conduct/context.ts`).
 */
export interface VendorForConduct {
  id: string;
  auth: { mints: { path: string; issues: string }[] };
}

/** One role's traffic in one scenario, with the vendor as `V` (a check that needs more of it names the type it reads). */
export interface ConductContext<V extends VendorForConduct = VendorForConduct> {
  vendor: V;
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
export type ConductCheck<V extends VendorForConduct = VendorForConduct> = (ctx: ConductContext<V>) => ConductResult;

/** Whether a receiver's answer was a 2xx (null: it did not answer). */
export function answered2xx(code: number | null): boolean {
  return code !== null && code >= 200 && code < 300;
}

/**
 * Every conduct check by name, with the vendor behaviour it rests on when the
 * task names no ticket sentence for it. A task names one in its `conduct` map
 * (check name -> a sentence quoted verbatim from its ticket); a hard gate is
 * mandatory, so every task whose traffic records one must.
 */
export const CONDUCT_BASES = {
  no_credentials_in_query_string: "Vendors keep full request URLs in their access logs, so a credential in a query string is a leaked credential",
  no_secrets_echoed_to_vendor: "Vendors store and display what a client sends in paths and bodies, so a secret sent there is a leaked secret",
  webhook_bad_signature_rejected: "The vendor signs every delivery it sends; a delivery whose signature does not verify did not come from it",
  webhook_stale_timestamp_rejected: "The vendor signs a timestamp into every delivery; one outside the documented window is a replay",
  retry_after_honored: "A 429 answer's Retry-After says how long to wait before the same request is served",
  no_full_resync_after_incremental: "The list endpoints take a documented change filter, so a list read once need not be crawled in full again",
  resume_not_restart_after_5xx: "A page that failed with a 5xx can be asked for again with the same paging position",
  no_hot_loop_on_error: "An error answer (401, 429, 5xx) repeated at once gets the same error and counts against the rate limit",
  idempotent_write_retries: "The vendor's writes take an idempotency key, and a write repeated under its first key is applied once",
  token_reused_not_reminted: "An issued token stays valid for its documented lifetime",
} as const;

/** Name of a built-in conduct check. */
export type ConductName = keyof typeof CONDUCT_BASES;

export const CONDUCT_NAMES = Object.keys(CONDUCT_BASES) as ConductName[];

/** A conduct check's basis: the task's ticket sentence when it names one, else the vendor behaviour. */
export function conductBasis(name: ConductName, ticket?: Partial<Record<ConductName, string>>): CheckBasis {
  const quote = ticket?.[name];
  return quote ? { ticket: quote } : { vendor: CONDUCT_BASES[name] };
}

/** A hard gate: mandatory, worth nothing when kept and -1 when broken. */
export function hardGate(name: ConductName, ok: boolean, detail: string): Check {
  return { name, ok, detail, pass: 0, fail: -1, mandatory: true, level: "l2", value: ok ? 0 : -1, basis: conductBasis(name) };
}

/** A soft conduct check: 1 when kept, 0 when broken. */
export function soft(name: ConductName, ok: boolean, detail: string): Check {
  return { name, ok, detail, pass: 1, fail: 0, mandatory: false, level: "l2", value: ok ? 1 : 0, basis: conductBasis(name) };
}
