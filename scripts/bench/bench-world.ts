/**
 * @module bench-world
 * The world the A/B, profile and perf tools drive: a HireWire world without
 * rate limits, and one repeated request per target on it: the hop into its
 * Durable Object, the cheapest logged request, a single record, a 50-row list
 * page. `npm run bench` measures client traffic instead (`client-traffic.ts`).
 */

/** One URL to drive, with the headers it needs. */
export interface BenchTarget {
  url: string;
  headers: Record<string, string>;
}

/** The bench world's targets. */
export interface BenchWorld {
  world: string;
  targets: { hop: BenchTarget; floor: BenchTarget; single: BenchTarget; list: BenchTarget };
}

/** Creates the bench world on a farm through its control plane. */
export async function createBenchWorld(farmUrl: string, adminToken: string): Promise<BenchWorld> {
  const res = await fetch(`${farmUrl}/v1/worlds`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ vendors: { ats: "hirewire" }, seed: 1, rateLimits: false }),
  });
  if (!res.ok) throw new Error(`bench world: POST /v1/worlds answered ${res.status} ${await res.text()}`);
  const made = (await res.json()) as { world: string; vendors: { ats: { baseUrl: string; credentials: Record<string, string> } } };
  const ats = made.vendors.ats;
  const key = { "x-api-key": ats.credentials.api_key };
  return {
    world: made.world,
    targets: {
      hop: { url: `${ats.baseUrl}/_health`, headers: {} },
      // No route matches: the credentials are checked (for the log's auth outcome), a 404 goes out, and the request is logged.
      floor: { url: `${ats.baseUrl}/v1/unrouted`, headers: key },
      single: { url: `${ats.baseUrl}/v1/candidates/1001`, headers: key },
      list: { url: `${ats.baseUrl}/v1/candidates?page=1&per_page=50`, headers: key },
    },
  };
}
