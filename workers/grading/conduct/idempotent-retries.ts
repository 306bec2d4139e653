import { exportStyle } from "../../../mechanics/exports/index.ts";
import { gatewayStyle } from "../../../mechanics/gateways/index.ts";
import { RequestHeaders } from "../../../mechanics/kit/request-headers.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import { soft, type ConductContext, type ConductResult } from "./context.ts";

/**
 * Whether a request is a gateway call whose operation only reads (a list, a
 * single read, a feed): sent again, it changes nothing, so it is no write.
 */
function gatewayRead(ctx: ConductContext, r: RequestLogEntry): boolean {
  const g = ctx.vendor.gateways.find((x) => x.path === r.path);
  if (!g || typeof r.body !== "string") return false;
  const call = gatewayStyle(g).parse(g, { headers: new RequestHeaders(Object.entries(r.headers)), rawBody: r.body });
  if (!call.ok) return false;
  const op = g.operations.find((o) => o.name === call.call.operation);
  return !!op && op.action !== "write";
}

/**
 * Soft: a write sent more than once carries the same idempotency key each
 * time. A client that settles a failed or lost write without sending it again
 * (it read the outcome back) retried nothing unsafely: it passes too, once a
 * write of its has failed. With no failed and no repeated write there is
 * nothing to judge. A request for an export is not a write: each one asks for
 * a fresh snapshot, so asking again is no retry.
 */
export function idempotentRetries(ctx: ConductContext): ConductResult {
  const writes = ctx.vendor.writes.filter((w) => w.idempotency);
  if (!writes.length) return null;
  const bodyField = writes.find((w) => w.idempotency?.in === "body")?.idempotency;
  const field = bodyField?.in === "body" ? bodyField.field : null;
  const exportRequest = ctx.vendor.exports ? exportStyle(ctx.vendor.exports).routes(ctx.vendor.exports).request : null;
  const groups = new Map<string, (typeof ctx.requests)[number][]>();
  for (const r of ctx.requests) {
    if (!["POST", "PUT", "PATCH"].includes(r.method) || ctx.vendor.auth.mints.some((m) => m.path === r.path) || r.path === exportRequest || gatewayRead(ctx, r)) continue;
    const body = r.body && typeof r.body === "object" ? { ...(r.body as Record<string, unknown>) } : r.body;
    if (field && body && typeof body === "object") delete (body as Record<string, unknown>)[field];
    const k = `${r.method} ${r.path} ${JSON.stringify(body)}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  const repeated = [...groups.values()].filter((g) => g.length > 1);
  if (!repeated.length) {
    const failed = [...groups.values()].flat().filter((r) => r.status >= 500 || r.faults.length > 0);
    return failed.length ? soft("idempotent_write_retries", true, `${failed.length} failed or lost writes settled without sending them again`) : null;
  }
  for (const g of repeated) {
    const first = g[0];
    for (const r of g.slice(1)) {
      const informed = r.headers["if-match"] !== undefined && r.headers["if-match"] !== g[g.indexOf(r) - 1].headers["if-match"];
      if (informed) continue;
      if (!r.idempotencyKey || r.idempotencyKey !== first.idempotencyKey)
        return soft("idempotent_write_retries", false, `request #${r.seq} repeats ${r.method} ${r.path} with ${r.idempotencyKey ? "a different" : "no"} idempotency key`);
    }
  }
  return soft("idempotent_write_retries", true, `${repeated.length} repeated writes, each with its first key`);
}
