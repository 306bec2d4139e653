import type { ConductContext } from "../../../declarations/evidence/conduct.ts";
import type { RequestLogEntry } from "../../../declarations/evidence/logs.ts";
import type { Vendor } from "../../../declarations/schema/vendor.ts";

export { type ConductCheck, type ConductContext, type ConductResult, type DeliveryRow, hardGate, soft } from "../../../declarations/evidence/conduct.ts";

/** Paths of token endpoints: credentials belong there, so leak checks skip them. */
export function mintPaths(vendor: Vendor): Set<string> {
  return new Set(vendor.auth.mints.map((m) => m.path));
}

/** Requests to the data plane (everything but token endpoints). */
export function dataPlane(ctx: ConductContext): RequestLogEntry[] {
  const mints = mintPaths(ctx.vendor);
  return ctx.requests.filter((r) => !mints.has(r.path));
}
