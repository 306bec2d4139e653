import { inject } from "vitest";
import { startLocalFarm, type LocalFarm } from "../../scripts/farm/local-farm.ts";
import { TEST_ADMIN } from "./farm-token.ts";

export { TEST_ADMIN };

/**
 * The Node project's shared in-memory farm (started once by
 * `setup/shared-farm.ts`): a file makes its own worlds in it, and its `stop()`
 * leaves the farm to the next file.
 */
export async function startFarm(): Promise<LocalFarm> {
  const shared = inject("sharedFarm");
  return { url: shared.url, adminToken: shared.adminToken, storage: shared.storage, stop: async () => {} };
}

/** A farm of the file's own, for a test that stops, restarts or persists it. */
export function startOwnFarm(): Promise<LocalFarm> {
  return startLocalFarm({ port: 0, adminToken: TEST_ADMIN });
}

/** Calls a farm's control plane and returns the parsed body; throws on a non-2xx answer. */
export async function control<T = any>(farm: LocalFarm, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${farm.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${farm.adminToken}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}
