/**
 * @module grading-pool
 * What the validation rig's commands share: in-memory local farms (or one
 * given farm) and a pool that runs gradings a few at a time.
 */
import type { FarmHandle } from "../farm/control-client.ts";
import { LOCAL_ADMIN_TOKEN } from "../farm/open-farm.ts";

/** The farm at `url`, or a fresh in-memory local farm when none is given. */
export async function freshFarm(url: string | undefined): Promise<FarmHandle> {
  if (url) return { url: url.replace(/\/$/, ""), adminToken: process.env.WIREBENCH_ADMIN_TOKEN || LOCAL_ADMIN_TOKEN, close: async () => {} };
  const { startLocalFarm } = await import("../farm/local-farm.ts"); // Miniflare loads only when a farm starts
  const farm = await startLocalFarm({ port: 0, adminToken: LOCAL_ADMIN_TOKEN });
  return { url: farm.url, adminToken: farm.adminToken, close: () => farm.stop() };
}

/** Runs `fn` over items with at most `limit` at a time; results in the items' order. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i]);
      }
    }),
  );
  return results;
}
