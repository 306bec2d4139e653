import type { FarmHandle } from "../farm/control-client.ts";
import { controlCall } from "../farm/control-client.ts";
import { PARTICIPANT_KEY_PREFIX } from "../../workers/middleware/principal/principal.ts";

/** Whether a farm URL is on this machine (it can then reach local receivers itself). */
export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "::1" || host === "[::1]" || host.startsWith("127.");
}

/** Whether a farm is to be treated as remote: off this machine, or told so (`WIREBENCH_REMOTE=1`, a rehearsal on one machine). */
export function farmIsRemote(url: string): boolean {
  return !isLoopback(url) || process.env.WIREBENCH_REMOTE === "1";
}

/**
 * Whether webhooks reach receivers through the relay: a remote farm cannot
 * reach them, a farm delivers a participant's webhooks to no local or private
 * address (so a harness driving with a participant key relays them itself),
 * and `WIREBENCH_RELAY=1` asks for it.
 */
export function relayWanted(farm: Pick<FarmHandle, "url" | "adminToken">): boolean {
  return process.env.WIREBENCH_RELAY === "1" || farmIsRemote(farm.url) || farm.adminToken.startsWith(PARTICIPANT_KEY_PREFIX);
}

/**
 * One pass of the relay: takes the pending deliveries of a role from the
 * farm's outbox, delivers each to its (local) target as the farm would, and
 * reports the status (null when the receiver did not answer). Returns how
 * many it delivered.
 */
export async function relayOnce(farm: FarmHandle, world: string, role: string): Promise<number> {
  const { deliveries } = await controlCall<{ deliveries: { id: string; url: string; headers: Record<string, string>; body: string }[] }>(farm, "GET", `/v1/worlds/${world}/roles/${role}/outbox`);
  for (const d of deliveries) {
    let code: number | null = null;
    let answer = "";
    try {
      const res = await fetch(d.url, { method: "POST", headers: d.headers, body: d.body, signal: AbortSignal.timeout(5000) });
      code = res.status;
      answer = (await res.text()).slice(0, 65_536);
    } catch {
      code = null;
    }
    await controlCall(farm, "POST", `/v1/worlds/${world}/roles/${role}/outbox/${encodeURIComponent(d.id)}/result`, { responseCode: code, body: answer });
  }
  return deliveries.length;
}
