import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { compareRows, leaderboard } from "../../publish/aggregate.ts";
import { publish, SecretInRelease } from "../../publish/publish.ts";
import { regrade } from "../../publish/regrade.ts";
import { bundleDirs, DuplicateAttempt, loadAttempts } from "../../publish/runs.ts";
import { UsageError } from "../errors.ts";

/** `wirebench publish`: the static site of one runs folder, or of several merged (the slices of a sharded sweep). */
export function publishCommand(opts: { runs: string[]; out?: string; release: string; generatedAt?: string; publicOnly?: boolean }): void {
  if (!opts.out) throw new UsageError("--out DIR is required");
  for (const dir of opts.runs) if (!existsSync(dir)) throw new UsageError(`no such runs folder: ${dir}`);
  const runs = opts.runs.map((dir) => resolve(dir));
  // A slice may be empty (more shards than attempts); the release may not.
  if (!runs.some((dir) => bundleDirs(dir).length)) throw new UsageError(`no attempt bundles in ${opts.runs.join(", ")} (run wirebench run or run-all first)`);
  if (opts.generatedAt !== undefined && Number.isNaN(Date.parse(opts.generatedAt))) throw new UsageError(`--generated-at must be an ISO date, got "${opts.generatedAt}"`);
  if (!/^[A-Za-z0-9._-]+$/.test(opts.release)) throw new UsageError(`--release must be letters, digits, dots, dashes or underscores, got "${opts.release}"`);
  const started = performance.now();
  try {
    const r = publish({ runsDirs: runs, outDir: resolve(opts.out), release: opts.release, generatedAt: opts.generatedAt, publicOnly: opts.publicOnly });
    console.log(
      `published ${r.attempts} attempts (${r.rows} model/lane rows) as ${r.files} files, ${(r.bytes / 1024 / 1024).toFixed(1)} MB, in ${((performance.now() - started) / 1000).toFixed(1)} s to ${opts.out}`,
    );
  } catch (err) {
    if (err instanceof DuplicateAttempt) throw new UsageError(err.message);
    if (err instanceof SecretInRelease) {
      console.error(`wirebench: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
}

/** `wirebench regrade`: re-derive every verdict offline; exit 1 on any difference. */
export function regradeCommand(dir: string, opts: { json?: boolean }): void {
  if (!existsSync(dir)) throw new UsageError(`no such folder: ${dir}`);
  const r = regrade(resolve(dir));
  if (!r.attempts) throw new UsageError(`no attempt bundles under ${dir}`);
  if (opts.json) console.log(JSON.stringify(r, null, 2));
  else {
    for (const d of r.differences) console.log(`DIFF ${d.attempt} ${d.what}: published ${JSON.stringify(d.published)}, regraded ${JSON.stringify(d.regraded)}`);
    console.log(`${r.regraded} of ${r.attempts} attempts regraded from their evidence; ${r.differences.length} difference(s)`);
  }
  if (r.differences.length) process.exitCode = 1;
}

/** `wirebench compare A B`: paired bootstrap of two model/lane rows over the tasks both attempted. */
export function compareCommand(a: string, b: string, opts: { runs: string; json?: boolean }): void {
  let attempts: ReturnType<typeof loadAttempts>;
  try {
    attempts = loadAttempts(resolve(opts.runs));
  } catch (err) {
    throw err instanceof DuplicateAttempt ? new UsageError(err.message) : err;
  }
  if (!attempts.length) throw new UsageError(`no attempt bundles in ${opts.runs}`);
  const rows = leaderboard(attempts);
  const pick = (name: string) => {
    const hit = rows.filter((r) => r.id === name || r.model === name);
    if (hit.length === 1) return hit[0].id;
    if (hit.length > 1) throw new UsageError(`"${name}" ran on several lanes (${hit.map((h) => h.id).join(", ")}): name one`);
    throw new UsageError(`no model or model--lane "${name}" in ${opts.runs} (rows: ${rows.map((r) => r.id).join(", ")})`);
  };
  const r = compareRows(attempts, pick(a), pick(b));
  if (!r.tasks) throw new UsageError(`${r.a} and ${r.b} share no task`);
  if (opts.json) console.log(JSON.stringify(r, null, 2));
  else
    console.log(
      `${r.a} - ${r.b} over ${r.tasks} tasks: ${r.mean_diff.toFixed(1)} points (95% CI ${r.diff_ci.low.toFixed(1)} to ${r.diff_ci.high.toFixed(1)}); probability the order is reversed: ${r.p_order_reversed.toFixed(3)}`,
    );
}
