import type { Config } from "./config.ts";
import { type Candidate, HireWire } from "./hirewire.ts";
import { readState, writeJson } from "./state.ts";

const STATE = "poll-state.json";
const FEED = "candidate_changes.json";

/**
 * Where the analytics team's job stopped: its stored watermark 1748736000000
 * (2025-06-01T00:00:00Z). The job kept milliseconds, as HireWire's changelog
 * claims; HireWire's timestamps and its `since` filter are epoch seconds.
 */
const HANDOVER_SINCE_S = 1_748_736_000;

/** An epoch-seconds timestamp as ISO 8601 UTC. */
const iso = (s: number) => new Date(s * 1000).toISOString().replace(".000Z", "Z");

export async function poll(config: Config): Promise<number> {
  const client = new HireWire(config);
  const state = readState<{ since: number }>(config.outputDir, STATE, { since: HANDOVER_SINCE_S });
  const changed = new Map<number, Candidate>();
  for (const c of await client.listAll("/v1/candidates", { since: String(state.since) })) changed.set(c.id, c);
  const rows = [...changed.values()]
    .sort((a, b) => a.id - b.id)
    .map(({ id, created_at, updated_at, ...rest }) => ({ candidate_id: id, ...rest, created_at: iso(created_at), updated_at: iso(updated_at) }));
  // The next poll starts after the newest change HireWire showed us, on HireWire's own clock.
  const since = Math.max(state.since, ...[...changed.values()].map((c) => c.updated_at));
  writeJson(config.outputDir, FEED, rows);
  writeJson(config.outputDir, STATE, { since });
  console.error(`${rows.length} candidates changed; next poll from ${iso(since)}`);
  return 0;
}
