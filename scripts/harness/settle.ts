/**
 * @module settle
 * When a drive may go on after webhooks: nothing the vendor still has to
 * deliver, and the connector quiet. The vendor's pending count is exact
 * (queued, in flight, retries on their backoff), but a listener may answer a
 * delivery first and act on it after (an inbox it drains), which no vendor
 * count sees; its reads and writes do reach the vendor, so the drive also waits
 * until no role has logged a request for `quietMs`. A write the connector makes
 * meanwhile can queue a new event, so pending is read again throughout.
 */

/** What the farm says about the world at one moment. */
export interface WorldActivity {
  /** Webhook attempts still to be made or finished, over every role. */
  pending: number;
  /** Changes whenever any role logs a request (each role's epoch and request count). */
  requests: string;
}

export interface SettleOptions {
  /** Give up (and return) after this long; default 30 s. */
  timeoutMs?: number;
  /** How long the requests must stand still with nothing pending; default 400 ms. */
  quietMs?: number;
  /** Pause between two readings; default 50 ms. */
  pollMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Reads the world until nothing is pending and the requests have not moved for
 * `quietMs`, or the time is up. Returns whether it settled.
 */
export async function settle(read: () => Promise<WorldActivity>, opts: SettleOptions = {}): Promise<boolean> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const quietMs = opts.quietMs ?? 400;
  const deadline = now() + (opts.timeoutMs ?? 30_000);
  let quiet: { requests: string; since: number } | null = null;
  for (;;) {
    const w = await read();
    const t = now();
    if (w.pending > 0) quiet = null;
    else if (!quiet || quiet.requests !== w.requests) quiet = { requests: w.requests, since: t };
    else if (t - quiet.since >= quietMs) return true;
    if (t > deadline) return false;
    await sleep(opts.pollMs ?? 50);
  }
}
