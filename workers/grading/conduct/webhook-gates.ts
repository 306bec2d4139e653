import { hardGate, type ConductContext, type ConductResult } from "./context.ts";

const ok2xx = (code: number | null) => code !== null && code >= 200 && code < 300;

/** Hard gate: every answered delivery with a forged signature was refused. */
export function forgedWebhookRejected(ctx: ConductContext): ConductResult {
  const forged = ctx.webhooks.filter((d) => d.tampered && d.responseCode !== null);
  if (!forged.length) return null;
  const accepted = forged.find((d) => ok2xx(d.responseCode));
  return hardGate(
    "webhook_bad_signature_rejected",
    !accepted,
    accepted ? `forged delivery ${accepted.eventId} was accepted with ${accepted.responseCode}` : `${forged.length} forged deliveries refused`,
  );
}

/** Hard gate: every answered delivery with a timestamp outside the window was refused. */
export function staleWebhookRejected(ctx: ConductContext, maxSkewS = ctx.maxSkewS ?? 300): ConductResult {
  const stale = ctx.webhooks.filter((d) => Math.abs(d.skewS) > maxSkewS && d.responseCode !== null);
  if (!stale.length) return null;
  const accepted = stale.find((d) => ok2xx(d.responseCode));
  return hardGate("webhook_stale_timestamp_rejected", !accepted, accepted ? `stale delivery ${accepted.eventId} (skew ${accepted.skewS}s) was accepted` : `${stale.length} stale deliveries refused`);
}
