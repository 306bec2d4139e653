import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { startLocalFarm } from "../../farm/local-farm.ts";
import { projectRoot } from "../../farm/paths.ts";
import { UsageError } from "../errors.ts";

/** Options of `wirebench serve`. */
export interface ServeOptions {
  port?: string;
  host: string;
  persist?: string;
  memory?: boolean;
  site?: string;
}

/** `wirebench serve`: the local farm, in the foreground until interrupted. */
export async function serve(opts: ServeOptions): Promise<void> {
  const port = Number(opts.port ?? process.env.PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be an integer from 0 to 65535, got "${opts.port}"`);
  const generated = !process.env.WIREBENCH_ADMIN_TOKEN;
  const adminToken = process.env.WIREBENCH_ADMIN_TOKEN || `wb_admin_${randomBytes(12).toString("hex")}`;
  const persistDir = opts.memory ? undefined : (opts.persist ?? join(projectRoot(), ".wirebench", "state"));
  const defaultSite = join(projectRoot(), "demo", "site");
  const siteDir = opts.site ?? (existsSync(join(defaultSite, "index.html")) ? defaultSite : undefined);
  if (opts.site && !existsSync(join(opts.site, "index.html"))) throw new UsageError(`--site ${opts.site}: no published site there (wirebench publish --out ${opts.site})`);
  const farm = await startLocalFarm({ port, host: opts.host, adminToken, persistDir, siteDir });
  const shown = farm.url.replace("127.0.0.1", "localhost");
  console.log(`wirebench farm listening on ${shown}`);
  console.log(`state: ${persistDir ?? "in memory"}`);
  if (siteDir) console.log(`site: ${siteDir} at ${shown}/`);
  console.log(`admin token${generated ? " (generated; set WIREBENCH_ADMIN_TOKEN to choose one)" : ""}: ${adminToken}`);
  console.log(`  export WIREBENCH_ADMIN_TOKEN=${adminToken}`);
  console.log("create a world:");
  console.log(`  curl -s -X POST ${shown}/v1/worlds -H 'authorization: Bearer ${adminToken}' -H 'content-type: application/json' -d '{"vendors":{"ats":"staffline"},"seed":1}'`);
  console.log("ready");
  const stop = async () => {
    await farm.stop();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await new Promise(() => {});
}
