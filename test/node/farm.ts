import { startLocalFarm, type LocalFarm } from "../../scripts/farm/local-farm.ts";

export const TEST_ADMIN = "node-test-admin";

/** Starts an in-memory farm on a free port. */
export function startFarm(): Promise<LocalFarm> {
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
