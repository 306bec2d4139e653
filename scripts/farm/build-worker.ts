import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { heldOutActive, heldOutRoot } from "../harness/held-out.ts";
import { projectRoot } from "./paths.ts";

/** The two Workers of a farm and the configs they are built from. */
const WORKERS = { farm: "wrangler.toml", grader: join("workers", "grader", "wrangler.toml") } as const;

/** Paths of the built bundles. */
export interface WorkerBundles {
  /** The farm Worker: control plane, vendor surfaces, world Durable Objects. */
  farm: string;
  /** The grader Worker: D1 and the judges. */
  grader: string;
}

/** Newest modification time under the folders the Worker bundle is built from. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Bundles the Worker of the wrangler config `config` with `wrangler deploy --dry-run` into the file `target`. */
export function bundle(root: string, config: string, target: string, extraArgs: string[] = []): void {
  // Build into a private folder, then move the bundle into place in one rename, so
  // processes building at the same time never see (or serve) a half-written file.
  const scratch = join(root, ".wirebench", `build-${process.pid}-${Date.now()}`);
  try {
    execFileSync(process.execPath, [join(root, "node_modules", "wrangler", "bin", "wrangler.js"), "deploy", "--dry-run", "--env", "", "-c", config, "--outdir", scratch, ...extraArgs], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    });
    renameSync(join(scratch, "index.js"), target);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Bundles the farm and grader Workers into `.wirebench/build`, skipping a
 * build when its bundle is newer than every source file.
 */
export function buildWorker(force = false): WorkerBundles {
  const root = projectRoot();
  // With held-out tasks mounted, the bundles take their registry in place of the empty one, and are kept apart.
  const heldOut = heldOutActive();
  const outDir = join(root, ".wirebench", heldOut ? "build-held-out" : "build");
  mkdirSync(outDir, { recursive: true });
  const extraArgs = heldOut ? ["--alias", `#held-out:${join(heldOutRoot(), "registry.ts")}`] : [];
  const dirs = ["evidence", "mechanics", "declarations", "workers"].map((dir) => join(root, dir));
  const sources = Math.max(...[...dirs, ...(heldOut ? [heldOutRoot()] : [])].map(newestSource));
  const out = { farm: join(outDir, "farm.js"), grader: join(outDir, "grader.js") };
  for (const name of Object.keys(WORKERS) as (keyof typeof WORKERS)[]) {
    const config = join(root, WORKERS[name]);
    const target = out[name];
    if (!force && existsSync(target) && statSync(target).mtimeMs > Math.max(sources, statSync(config).mtimeMs)) continue;
    bundle(root, config, target, extraArgs);
  }
  return out;
}
