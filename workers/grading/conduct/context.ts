import type { ConductCheck as CheckOf, ConductContext as ContextOf } from "../../../evidence/conduct.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { Vendor } from "../../../declarations/schema/vendor.ts";

export { type ConductResult, type DeliveryRow, hardGate, soft } from "../../../evidence/conduct.ts";

/** One role's traffic in one scenario, with the whole vendor declaration. */
export type ConductContext = ContextOf<Vendor>;

/** A built-in conduct check (it may read any part of the vendor). */
export type ConductCheck = CheckOf<Vendor>;

/** Paths of token endpoints: credentials belong there, so leak checks skip them. */
export function mintPaths(vendor: Vendor): Set<string> {
  return new Set(vendor.auth.mints.map((m) => m.path));
}

/** Requests to the data plane (everything but token endpoints). */
export function dataPlane(ctx: ConductContext): RequestLogEntry[] {
  const mints = mintPaths(ctx.vendor);
  return ctx.requests.filter((r) => !mints.has(r.path));
}
