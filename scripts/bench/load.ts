/**
 * @module load
 * Throughput measurements with autocannon: each target in interleaved rounds,
 * with the farm's CPU time per request.
 */
import autocannon from "autocannon";
import { farmCpuMs } from "./farm-processes.ts";

/** One throughput measurement. */
export interface LoadResult {
  /** What was measured. */
  target: string;
  connections: number;
  /** Requests per second: the median over the rounds (the mean over the window when measured once). */
  rps: number;
  /** Requests per second of each round, when the target was measured in rounds interleaved with others. */
  rpsByRound?: number[];
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
  /** Responses outside 2xx, and socket errors. */
  non2xx: number;
  errors: number;
  /** Total requests measured. */
  requests: number;
  /** CPU time the farm's processes spent per request (µs): steadier than req/s on a shared machine. */
  farmCpuUsPerRequest: number;
}

/** A URL to drive, with its headers, under the name it is reported by; with `paths`, the requests cycle through them (paths and queries on `url`'s origin). */
export interface LoadTarget {
  target: string;
  url: string;
  headers: Record<string, string>;
  paths?: string[];
}

/**
 * Autocannon's options for a target. A target with paths sends them in turn,
 * from where its last round stopped, so a crawl goes on across rounds.
 */
export function driving(t: LoadTarget, connections: number, duration: number, at: { next: number }): autocannon.Options {
  const base = { url: t.url, headers: t.headers, connections, duration };
  const paths = t.paths;
  if (!paths) return base;
  return { ...base, requests: [{ setupRequest: (req) => ({ ...req, path: paths[at.next++ % paths.length] }) }] };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Measures the targets in `rounds` interleaved rounds of `seconds / rounds`
 * each (after a warm-up of each), so a drift in the machine's speed hits every
 * target alike and a ratio between two targets can be taken round by round.
 * The order rotates from round to round.
 * Latency percentiles are the medians of the rounds'; CPU per request is over
 * all of them.
 */
export async function measureInRounds(targets: LoadTarget[], connections: number, seconds: number, rounds: number): Promise<LoadResult[]> {
  const perRound = Math.max(1, Math.round(seconds / rounds));
  const cursors = targets.map(() => ({ next: 0 }));
  for (const [i, t] of targets.entries()) await autocannon(driving(t, connections, 1, cursors[i]));
  const seen = targets.map(() => ({ rps: [] as number[], p50: [] as number[], p99: [] as number[], non2xx: 0, errors: 0, requests: 0, cpuMs: 0 }));
  for (let round = 0; round < rounds; round++)
    for (let k = 0; k < targets.length; k++) {
      // Each round starts one target further on, so no target always follows the same one (and the garbage it left).
      const i = (k + round) % targets.length;
      const t = targets[i];
      const cpu0 = farmCpuMs();
      const r = await autocannon(driving(t, connections, perRound, cursors[i]));
      const s = seen[i];
      s.cpuMs += farmCpuMs() - cpu0;
      s.rps.push(Math.round(r.requests.average));
      s.p50.push(r.latency.p50);
      s.p99.push(r.latency.p99);
      s.non2xx += r.non2xx;
      s.errors += r.errors;
      s.requests += r.requests.total;
    }
  return targets.map((t, i) => {
    const s = seen[i];
    return {
      target: t.target,
      connections,
      rps: median(s.rps),
      rpsByRound: s.rps,
      p50: median(s.p50),
      p99: median(s.p99),
      non2xx: s.non2xx,
      errors: s.errors,
      requests: s.requests,
      farmCpuUsPerRequest: Math.round((s.cpuMs * 1000) / Math.max(1, s.requests)),
    };
  });
}
