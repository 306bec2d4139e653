import { join } from "node:path";
import { Miniflare, convertV4MiniflareOptions } from "miniflare";
import { buildWorker } from "./build-worker.ts";
import { applyMigrations } from "./d1-migrations.ts";
import { projectRoot } from "./paths.ts";
import { ramStorage } from "./scratch-storage.ts";
import { siteHandler } from "./site-files.ts";
import { isLoopbackHost } from "../../workers/middleware/principal/dev-token.ts";

/** Options of a local farm. */
export interface LocalFarmOptions {
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Interface to bind; 127.0.0.1 unless told otherwise. */
  host?: string;
  /** Control-plane bearer token. */
  adminToken: string;
  /** Folder for Durable Object and D1 state; in memory when absent (a RAM-backed folder when the machine has one, see `scratch-storage.ts`). */
  persistDir?: string;
  /** A published site (`wirebench publish --out`) the farm serves at `/`. */
  siteDir?: string;
  /** Port of workerd's V8 inspector (for profiling); none when absent. */
  inspectorPort?: number;
}

/** A running local farm. */
export interface LocalFarm {
  /** Base URL, e.g. http://127.0.0.1:8787. */
  url: string;
  adminToken: string;
  /** Where the farm's storage lives: the state folder, a RAM-backed folder, or Miniflare's temporary folder on disk. */
  storage: "persisted" | "ram" | "temporary-disk";
  stop(): Promise<void>;
}

/**
 * Serves the built farm and grader Workers directly through Miniflare (no
 * `wrangler dev` proxy in between), with SQLite-backed Durable Objects and a
 * local D1 the grader alone binds.
 */
export async function startLocalFarm(opts: LocalFarmOptions): Promise<LocalFarm> {
  const root = projectRoot();
  const bundles = buildWorker();
  const host = opts.host ?? "127.0.0.1";
  // Storage nothing outlives (no state folder) is kept in RAM where it can be: on disk, every commit would wait for a flush.
  const scratch = opts.persistDir ? undefined : ramStorage();
  const storageDir = opts.persistDir ?? scratch?.dir;
  const common = { modules: true, compatibilityDate: "2026-11-01", compatibilityFlags: ["nodejs_compat"] };
  // Clients reach the farm Worker on a socket of its own, as a deployed Worker is reached:
  // Miniflare's entry Worker (on a loopback port of its own, unused) would copy every
  // request and pump every response body through one more Worker. The grader is reached
  // only through the farm's GRADER binding, as in production.
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: "127.0.0.1",
      port: 0,
      ...(storageDir ? { resourcePersistencePath: storageDir } : {}),
      ...(opts.inspectorPort !== undefined ? { inspectorPort: opts.inspectorPort } : {}),
      workers: [
        {
          ...common,
          name: "wirebench-farm",
          scriptPath: bundles.farm,
          unsafeDirectSockets: [{ host, port: opts.port }],
          // Bound off loopback, the farm is public: its control plane must not trust a Host header naming loopback.
          bindings: { WIREBENCH_ADMIN_TOKEN: opts.adminToken, WIREBENCH_EXPOSURE: isLoopbackHost(host) ? "loopback" : "public" },
          durableObjects: { WORLD: { className: "WorldObject", useSQLite: true } },
          serviceBindings: { GRADER: "wirebench-grader", ...(opts.siteDir ? { SITE: siteHandler(opts.siteDir) } : {}) },
        },
        {
          ...common,
          name: "wirebench-grader",
          scriptPath: bundles.grader,
          d1Databases: { DB: "wirebench-local" },
          durableObjects: { WORLD: { className: "WorldObject", scriptName: "wirebench-farm", useSQLite: true } },
        },
      ],
    } as never),
  );
  try {
    await mf.ready;
  } catch (err) {
    scratch?.remove();
    throw err;
  }
  await applyMigrations((await mf.getD1Database("DB", "wirebench-grader")) as never, join(root, "migrations"));
  const url = (await mf.unsafeGetDirectURL("wirebench-farm")).origin;
  return {
    url,
    adminToken: opts.adminToken,
    storage: opts.persistDir ? "persisted" : scratch ? "ram" : "temporary-disk",
    stop: async () => {
      try {
        await mf.dispose();
      } finally {
        scratch?.remove();
      }
    },
  };
}
