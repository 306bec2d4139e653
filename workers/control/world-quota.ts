/**
 * @module world-quota
 * A participant's world quotas, worlds per UTC day and worlds live at once,
 * reserved before a world is seeded: the archive adds the world's row only
 * while both are under their limits, in one statement, so concurrent creates
 * never pass them. A refusal is a 429 whose Retry-After says when the quota
 * frees up.
 */
import type { Principal } from "../middleware/principal/principal.ts";
import type { WorldRow } from "../grader/world-registry.ts";
import type { AppContext } from "./world-lookup.ts";

const DAY_MS = 86_400_000;

/** Archives the participant's world if its quotas allow; the 429 to answer when they do not, else null. */
export async function reserveWorld(c: AppContext, who: Extract<Principal, { kind: "participant" }>, row: WorldRow): Promise<Response | null> {
  if (await c.env.GRADER.reserveWorld(row, who.quota)) return null;
  return (await quotaRefusal(c, who, row.createdAt)) ?? c.json({ error: "quota: another world was being created at the same moment; try again" }, 429, { "retry-after": "1" });
}

/** The 429 naming the quota that is used up, or null when neither is. */
async function quotaRefusal(c: AppContext, who: Extract<Principal, { kind: "participant" }>, nowMs: number): Promise<Response | null> {
  const use = await c.env.GRADER.worldUse(who.id, nowMs);
  if (use.createdToday >= who.quota.worldsPerDay) {
    const retry = Math.max(1, Math.ceil((Math.floor(nowMs / DAY_MS + 1) * DAY_MS - nowMs) / 1000));
    return c.json({ error: `quota: ${who.quota.worldsPerDay} worlds per UTC day, all used today` }, 429, { "retry-after": String(retry) });
  }
  if (use.live >= who.quota.liveWorlds) {
    const retry = use.nextExpiryMs === null ? 60 : Math.max(1, Math.ceil((use.nextExpiryMs - nowMs) / 1000));
    return c.json({ error: `quota: ${who.quota.liveWorlds} live worlds at once; end one (DELETE /v1/worlds/:world) or wait for one to expire` }, 429, { "retry-after": String(retry) });
  }
  return null;
}
