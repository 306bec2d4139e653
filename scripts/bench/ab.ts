/**
 * @module ab
 * Compares the farm of the working tree with the farm of a git ref, side by
 * side on one machine: both farms run at once and each target is measured on
 * them in alternating short rounds, so a change in the machine's speed hits
 * both alike. Reports the median farm CPU time per request and req/s.
 *
 *   npm run bench:ab -- <ref> [rounds]
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { projectRoot } from "../farm/paths.ts";
import { type BenchWorld, createBenchWorld } from "./bench-world.ts";
import { cpuMsOf, farmPids } from "./farm-processes.ts";

const ADMIN = "bench-admin";
const ROUND_S = 2;

interface Farm {
  label: string;
  pids: number[];
  stop(): Promise<void>;
  targets: BenchWorld["targets"];
}

async function startFarm(label: string, root: string): Promise<Farm> {
  const before = new Set(farmPids());
  const { startLocalFarm } = (await import(join(root, "scripts", "farm", "local-farm.ts"))) as typeof import("../farm/local-farm.ts");
  const farm = await startLocalFarm({ port: 0, adminToken: ADMIN });
  const pids = farmPids().filter((p) => !before.has(p));
  const { targets } = await createBenchWorld(farm.url, ADMIN);
  return { label, pids, stop: () => farm.stop(), targets };
}

/** A checkout of `ref` beside the working tree, sharing its node_modules. */
function checkout(ref: string): string {
  const root = projectRoot();
  const sha = execFileSync("git", ["rev-parse", ref], { cwd: root, encoding: "utf8" }).trim();
  const dir = join(root, ".wirebench", "ab", sha.slice(0, 12));
  if (!existsSync(dir)) {
    mkdirSync(join(root, ".wirebench", "ab"), { recursive: true });
    execFileSync("git", ["worktree", "add", "--detach", dir, sha], { cwd: root, stdio: "ignore" });
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"));
  }
  return dir;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const ref = process.argv[2];
  if (!ref) throw new Error("usage: npm run bench:ab -- <git ref> [rounds]");
  const rounds = Number(process.argv[3] ?? 5);
  const base = await startFarm(ref, checkout(ref));
  const work = await startFarm("working tree", projectRoot());
  try {
    for (const target of Object.keys(base.targets) as (keyof Farm["targets"])[]) {
      const seen: Record<string, { cpu: number[]; rps: number[] }> = { [base.label]: { cpu: [], rps: [] }, [work.label]: { cpu: [], rps: [] } };
      for (const f of [base, work]) await autocannon({ ...f.targets[target], connections: 16, duration: 1 });
      for (let i = 0; i < rounds; i++) {
        for (const f of i % 2 ? [work, base] : [base, work]) {
          const cpu0 = cpuMsOf(f.pids);
          const r = await autocannon({ ...f.targets[target], connections: 16, duration: ROUND_S });
          seen[f.label].cpu.push(((cpuMsOf(f.pids) - cpu0) * 1000) / Math.max(1, r.requests.total));
          seen[f.label].rps.push(r.requests.average);
        }
      }
      const b = seen[base.label];
      const w = seen[work.label];
      console.log(
        `${target.padEnd(7)} ${base.label}: ${median(b.cpu).toFixed(0).padStart(5)} µs/req ${median(b.rps).toFixed(0).padStart(5)} req/s | working tree: ${median(w.cpu).toFixed(0).padStart(5)} µs/req ${median(w.rps).toFixed(0).padStart(5)} req/s | CPU ${((median(w.cpu) / median(b.cpu) - 1) * 100).toFixed(1)}%`,
      );
    }
  } finally {
    await base.stop();
    await work.stop();
  }
}

await main();
