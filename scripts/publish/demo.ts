/**
 * `npm run demo`: a real release from real runs. The scripted gold, naive and
 * nothing models go through every task (or the tasks named) on one lane,
 * three trials each, then the release is published and regraded offline.
 *
 *   node scripts/publish/demo.ts [--out demo] [--lane direct] [--trials 3] [--jobs 2] [task ...]
 */
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { TASKS } from "../../declarations/tasks/index.ts";
import { startLocalFarm } from "../farm/local-farm.ts";
import { projectRoot } from "../farm/paths.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { out: { type: "string", default: "demo" }, lane: { type: "string", default: "direct" }, trials: { type: "string", default: "3" }, jobs: { type: "string", default: "2" } },
});
const out = resolve(values.out!);
const tasks = positionals.length ? positionals : Object.keys(TASKS);
const cli = join(projectRoot(), "scripts", "bin", "wirebench.mjs");
const token = "demo-admin";
const farm = await startLocalFarm({ port: 0, adminToken: token });
const env = { ...process.env, WIREBENCH_ADMIN_TOKEN: token };
const timings: Record<string, number> = {};
try {
  for (const model of ["scripted:gold", "scripted:naive", "scripted:nothing"]) {
    const started = performance.now();
    const r = spawnSync(
      process.execPath,
      [cli, "run-all", ...tasks, "--agent", values.lane!, "--model", model, "--trials", values.trials!, "--jobs", values.jobs!, "--farm", farm.url, "--out", join(out, "runs")],
      { env, stdio: ["ignore", "ignore", "inherit"] },
    );
    timings[model] = (performance.now() - started) / 1000;
    if (r.status !== 0 && r.status !== 1) throw new Error(`run-all ${model} exited ${r.status}`);
  }
} finally {
  await farm.stop();
}
const started = performance.now();
const pub = spawnSync(process.execPath, [cli, "publish", "--runs", join(out, "runs"), "--out", join(out, "site"), "--release", "demo", "--generated-at", "2026-12-01T00:00:00Z"], {
  env,
  stdio: "inherit",
});
timings.publish = (performance.now() - started) / 1000;
if (pub.status !== 0) process.exit(pub.status ?? 1);
const reg = spawnSync(process.execPath, [cli, "regrade", join(out, "site")], { env, stdio: "inherit" });
console.log(
  `demo: ${tasks.length} tasks x 3 scripted models x ${values.trials} trials on ${values.lane}; ${Object.entries(timings)
    .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
    .join(", ")}; open ${join(out, "site", "index.html")}`,
);
process.exit(reg.status ?? 1);
