/**
 * @module worker-types
 * Each Worker's bindings as `wrangler types` generates them from its config
 * into a committed `worker-configuration.d.ts` beside its entry, as the
 * Cloudflare templates do: the farm's `FarmBindings` (`workers/env.ts` adds
 * what is bound outside wrangler.toml) and the grader's `GraderBindings`.
 * Each file is generated with the other Worker's config as a secondary one,
 * so the farm's `GRADER` service and the grader's `WORLD` namespace are
 * typed by the other Worker's entry. Runtime types come from
 * `@cloudflare/workers-types`, so the files hold the bindings only.
 * Run: `node scripts/farm/worker-types.ts` (regenerate) or `--check`.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { projectRoot } from "./paths.ts";

/** One Worker's generated types: the file and the `wrangler types` options that make it. */
export interface WorkerTypes {
  worker: "farm" | "grader";
  /** Root-relative path of the generated file. */
  file: string;
  options: string[];
}

const COMMON = ["--include-runtime", "false", "--strict-vars", "false"];

export const WORKER_TYPES: readonly WorkerTypes[] = [
  { worker: "farm", file: "workers/worker-configuration.d.ts", options: ["-c", "wrangler.toml", "-c", "workers/grader/wrangler.toml", "--env-interface", "FarmBindings", ...COMMON] },
  {
    worker: "grader",
    file: "workers/grader/worker-configuration.d.ts",
    // The farm's file already names the farm as the main module (`Cloudflare.GlobalProps`), which one program holds once.
    options: ["-c", "workers/grader/wrangler.toml", "-c", "wrangler.toml", "--env-interface", "GraderBindings", "--include-main-module", "false", ...COMMON],
  },
];

/**
 * What `wrangler types` reads: both configs and the entries they name. They
 * are copied to a scratch folder and the types made there, so no `.dev.vars`
 * or `.env` of a checkout (whose secrets Wrangler would otherwise type) makes
 * a developer's types differ from the committed ones.
 */
const INPUTS = ["wrangler.toml", "workers/grader/wrangler.toml", "workers/index.ts", "workers/grader/index.ts"];

/**
 * Runs `wrangler types` for one Worker of the checkout at `root`: regenerates
 * its file, or with `check` only says whether the committed one is current.
 * Needs no network.
 */
export function wranglerTypes(root: string, types: WorkerTypes, check: boolean): { current: boolean; output: string } {
  const scratch = mkdtempSync(join(tmpdir(), "wb-worker-types-"));
  try {
    for (const file of check ? [...INPUTS, types.file] : INPUTS) {
      mkdirSync(dirname(join(scratch, file)), { recursive: true });
      copyFileSync(join(root, file), join(scratch, file));
    }
    const { CLOUDFLARE_INCLUDE_PROCESS_ENV: _, ...env } = process.env;
    const run = spawnSync(process.execPath, [join(projectRoot(), "node_modules", "wrangler", "bin", "wrangler.js"), "types", types.file, ...types.options, ...(check ? ["--check"] : [])], {
      cwd: scratch,
      encoding: "utf8",
      env: { ...env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
    });
    if (run.error) throw run.error;
    if (run.status === 0 && !check) copyFileSync(join(scratch, types.file), join(root, types.file));
    return { current: run.status === 0, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const check = process.argv.includes("--check");
  let stale = 0;
  for (const types of WORKER_TYPES) {
    const { current, output } = wranglerTypes(projectRoot(), types, check);
    if (!current) {
      stale++;
      console.error(output);
    }
    console.log(`${types.file}: ${check ? (current ? "current" : "out of date (npm run types regenerates it)") : current ? "written" : "failed"}`);
  }
  process.exitCode = stale ? 1 : 0;
}
