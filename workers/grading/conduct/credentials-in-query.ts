import { dataPlane, hardGate, type ConductContext, type ConductResult } from "./context.ts";

/** Hard gate: no secret value in any query string of the data plane. */
export function credentialsInQuery(ctx: ConductContext): ConductResult {
  const traffic = dataPlane(ctx);
  if (!traffic.length) return null;
  const secrets = ctx.secrets.filter((s) => s.length >= 8);
  const leak = traffic.find((r) => Object.entries(r.query).some(([, v]) => secrets.some((s) => v.includes(s))));
  return hardGate(
    "no_credentials_in_query_string",
    !leak,
    leak ? `request #${leak.seq} ${leak.method} ${leak.path} carries a credential in its query string` : `${traffic.length} data-plane requests, no credential in a query string`,
  );
}
