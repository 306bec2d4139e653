import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "./paths.ts";

/** Newest modification time under the folders the Worker bundle is built from. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Bundles the farm Worker with `wrangler deploy --dry-run` into `.wirebench/build`,
 * skipping the build when the bundle is newer than every source file.
 */
export function buildWorker(force = false): string {
  const root = projectRoot();
  const outDir = join(root, ".wirebench", "build");
  const bundle = join(outDir, "index.js");
  const sources = Math.max(newestSource(join(root, "workers")), newestSource(join(root, "declarations")), statSync(join(root, "wrangler.toml")).mtimeMs);
  if (!force && existsSync(bundle) && statSync(bundle).mtimeMs > sources) return bundle;
  // Build into a private folder, then move the bundle into place in one rename, so
  // processes building at the same time never see (or serve) a half-written file.
  const scratch = join(root, ".wirebench", `build-${process.pid}-${Date.now()}`);
  try {
    execFileSync(process.execPath, [join(root, "node_modules", "wrangler", "bin", "wrangler.js"), "deploy", "--dry-run", "--outdir", scratch], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    });
    mkdirSync(outDir, { recursive: true });
    renameSync(join(scratch, "index.js"), bundle);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return bundle;
}
