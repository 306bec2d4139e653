import { createServer } from "node:net";
import { join } from "node:path";
import { Miniflare, convertV4MiniflareOptions } from "miniflare";
import { buildWorker } from "./build-worker.ts";
import { applyMigrations } from "./d1-migrations.ts";
import { projectRoot } from "./paths.ts";
import { siteHandler } from "./site-files.ts";

/** Options of a local farm. */
export interface LocalFarmOptions {
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Interface to bind; 127.0.0.1 unless told otherwise. */
  host?: string;
  /** Control-plane bearer token. */
  adminToken: string;
  /** Folder for Durable Object and D1 state; in-memory when absent. */
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
  stop(): Promise<void>;
}

/** Hosts Miniflare's `ready` URL names as they are; for any other it answers with a second, 127.0.0.1 socket. */
const MINIFLARE_LOCAL_HOSTS = ["localhost", "127.0.0.1", "0.0.0.0", "::", "*", "::1"];

/** A free TCP port on `host` (released again before it is returned). */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, host, () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
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
  // On another address (127.0.0.2, a LAN address) Miniflare's `ready` URL is an extra 127.0.0.1
  // socket, not the one bound: the farm's URL is then the host and port asked for, a free one for 0.
  const named = MINIFLARE_LOCAL_HOSTS.includes(host);
  const port = named || opts.port !== 0 ? opts.port : await freePort(host);
  const common = { modules: true, compatibilityDate: "2026-11-01", compatibilityFlags: ["nodejs_compat"] };
  // The first Worker is the one Miniflare serves on the port: the farm. The grader is
  // reached only through the farm's GRADER binding, as in production.
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host,
      port,
      ...(opts.persistDir ? { resourcePersistencePath: opts.persistDir } : {}),
      ...(opts.inspectorPort !== undefined ? { inspectorPort: opts.inspectorPort } : {}),
      workers: [
        {
          ...common,
          name: "wirebench-farm",
          scriptPath: bundles.farm,
          bindings: { WIREBENCH_ADMIN_TOKEN: opts.adminToken },
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
  const ready = await mf.ready;
  await applyMigrations((await mf.getD1Database("DB", "wirebench-grader")) as never, join(root, "migrations"));
  const url = named ? ready.origin : `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return { url, adminToken: opts.adminToken, stop: () => mf.dispose() };
}
