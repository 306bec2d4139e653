import autocannon from "autocannon";
import { farmCpuMs } from "./farm-processes.ts";

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
  /** CPU time the farm's processes spent per request (µs): steadier than req/s on a shared machine. */
  farmCpuUsPerRequest: number;
}

/** Drives one URL for `seconds` at a fixed concurrency after a short warm-up. */
export async function measure(target: string, url: string, headers: Record<string, string>, connections: number, seconds: number): Promise<LoadResult> {
  await autocannon({ url, headers, connections, duration: 1 });
  const cpu0 = farmCpuMs();
  const r = await autocannon({ url, headers, connections, duration: seconds });
  const cpuMs = farmCpuMs() - cpu0;
  return {
    target,
    connections,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    requests: r.requests.total,
    farmCpuUsPerRequest: Math.round((cpuMs * 1000) / Math.max(1, r.requests.total)),
  };
}
