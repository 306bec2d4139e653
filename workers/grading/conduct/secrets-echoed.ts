import { dataPlane, hardGate, type ConductContext, type ConductResult } from "./context.ts";

function bodyHolds(body: unknown, secrets: string[]): boolean {
  if (typeof body === "string") return secrets.some((s) => body.includes(s));
  if (Array.isArray(body)) return body.some((b) => bodyHolds(b, secrets));
  if (body && typeof body === "object") return Object.entries(body).some(([k, v]) => secrets.some((s) => k.includes(s)) || bodyHolds(v, secrets));
  return false;
}

/** Hard gate: no secret in a path segment or a request body of the data plane. */
export function secretsEchoed(ctx: ConductContext): ConductResult {
  const traffic = dataPlane(ctx);
  if (!traffic.length) return null;
  const secrets = ctx.secrets.filter((s) => s.length >= 8);
  const leak = traffic.find((r) => secrets.some((s) => r.path.includes(s)) || bodyHolds(r.body, secrets));
  return hardGate("no_secrets_echoed_to_vendor", !leak, leak ? `request #${leak.seq} ${leak.method} ${leak.path} carries a secret in its path or body` : "no secret in paths or bodies");
}
