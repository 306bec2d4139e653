import type { Vendor } from "../../../declarations/schema/vendor.ts";
import { vendorError, type Reply } from "../../../mechanics/kit/reply.ts";

/** Decision for one request. */
export interface RateDecision {
  /** A 429 reply when refused. */
  refusal: Reply | null;
  /** Seconds the client is told to wait (refusals only). */
  retryAfter: number | null;
  /** Quota headers for every response. */
  headers: Record<string, string>;
}

const OPEN: RateDecision = { refusal: null, retryAfter: null, headers: {} };

/** A 429 telling the client to wait `seconds`, in the given style. */
export function tooManyRequests(vendor: Vendor, style: "seconds" | "http-date" | "body", seconds: number, nowMs: number): Reply {
  const headers: Record<string, string> = {};
  const extra: Record<string, unknown> = {};
  if (style === "seconds") headers["retry-after"] = String(seconds);
  // HTTP dates have whole seconds: round the moment up, so waiting until it is never early.
  else if (style === "http-date") headers["retry-after"] = new Date(Math.ceil((nowMs + seconds * 1000) / 1000) * 1000).toUTCString();
  else extra.retry_after_seconds = seconds;
  return vendorError(vendor, 429, "rate_limited", "Too many requests", extra, headers);
}

/**
 * Counted windows: `limit` requests are served; the one that uses up the
 * quota closes the window for `cooldownS` seconds of real time, after which
 * it reopens with a fresh count. The quota headers say so truthfully: the
 * response that leaves `remaining` at 0 says `reset` is `cooldownS` away, so a
 * client that waits that long is not refused. Whether a request is refused
 * depends only on how many came before it and how long the client waited,
 * never on how fast it is otherwise.
 */
export function rateLimit(vendor: Vendor, sql: SqlStorage, key: string, nowMs: number): RateDecision {
  const rl = vendor.rateLimit;
  if (!rl) return OPEN;
  const rows = sql.exec("SELECT used, closed_until_ms FROM rate WHERE credential = ?", key).toArray();
  let used = rows.length ? (rows[0].used as number) : 0;
  let closedUntil = rows.length ? (rows[0].closed_until_ms as number) : 0;
  if (closedUntil > 0 && nowMs >= closedUntil) {
    used = 0;
    closedUntil = 0;
  }
  let refusal: Reply | null = null;
  let retryAfter: number | null = null;
  // A window whose quota ran out before the quota could close it (rows of older releases) closes now.
  if (closedUntil === 0 && used >= rl.limit) closedUntil = nowMs + rl.cooldownS * 1000;
  if (closedUntil > 0) {
    retryAfter = Math.max(1, Math.ceil((closedUntil - nowMs) / 1000));
    refusal = tooManyRequests(vendor, rl.retryAfter, retryAfter, nowMs);
  } else {
    used += 1;
    if (used >= rl.limit) closedUntil = nowMs + rl.cooldownS * 1000;
  }
  sql.exec("INSERT OR REPLACE INTO rate (credential, used, closed_until_ms) VALUES (?, ?, ?)", key, used, closedUntil);
  const remaining = Math.max(0, rl.limit - used);
  const resetS = closedUntil > 0 ? Math.ceil((closedUntil - nowMs) / 1000) : rl.cooldownS;
  const headers: Record<string, string> = {};
  if (rl.headers === "x-ratelimit") Object.assign(headers, { "x-ratelimit-limit": String(rl.limit), "x-ratelimit-remaining": String(remaining), "x-ratelimit-reset": String(resetS) });
  else if (rl.headers === "ietf") Object.assign(headers, { "ratelimit-policy": `${rl.limit};w=${rl.cooldownS}`, ratelimit: `limit=${rl.limit}, remaining=${remaining}, reset=${resetS}` });
  return { refusal, retryAfter, headers };
}
