import autocannon from "autocannon";

/** One throughput measurement. */
export interface LoadResult {
  /** What was measured. */
  target: string;
  connections: number;
  /** Mean requests per second over the measured window. */
  rps: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
  /** Responses outside 2xx, and socket errors. */
  non2xx: number;
  errors: number;
  /** Total requests measured. */
  requests: number;
}

/** Drives one URL for `seconds` at a fixed concurrency after a short warm-up. */
export async function measure(target: string, url: string, headers: Record<string, string>, connections: number, seconds: number): Promise<LoadResult> {
  await autocannon({ url, headers, connections, duration: 1 });
  const r = await autocannon({ url, headers, connections, duration: seconds });
  return {
    target,
    connections,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    requests: r.requests.total,
  };
}
