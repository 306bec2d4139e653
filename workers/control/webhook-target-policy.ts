/**
 * @module webhook-target-policy
 * Where a caller may have the farm deliver webhooks. The farm fetches a
 * target itself unless the world delivers through the relay, so a
 * participant's target on this machine or a private network would let them
 * make the farm call what sits behind it: refused with the reason. The
 * operator registers whatever it likes (the local harness listens on
 * loopback), and a relayed target is never fetched by the farm (the caller's
 * own harness takes the deliveries from the outbox).
 */
import type { Principal } from "../middleware/principal/principal.ts";
import { privateHostReason } from "./private-address.ts";

/** Why this caller may not have the farm deliver to `url`, or null when it may. */
export function webhookTargetRefusal(principal: Principal, url: string | null, relay: boolean): string | null {
  if (principal.kind === "admin" || url === null || relay) return null;
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return `webhook target ${url}: the farm delivers to http and https URLs only`;
  const reason = privateHostReason(parsed);
  if (!reason) return null;
  return `webhook target ${url} is ${reason}; the farm does not deliver a participant's webhooks to itself or to private networks: give a public URL, or set relay: true and deliver from your own harness (the outbox)`;
}
