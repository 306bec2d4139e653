/**
 * @module ab
 * Compares the farm of the working tree with the farm of a git ref, side by
 * side on one machine: both farms run at once and each target is measured on
 * them in alternating short rounds, so a change in the machine's speed hits
 * both alike. The targets are `npm run bench`'s client traffic (distinct
 * pages and reads, a token-auth vendor, a faulted task world) beside the
 * hop. Reports the median farm CPU time per request and req/s.
 *
 *   npm run bench:ab -- <ref> [rounds]
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { projectRoot } from "../farm/paths.ts";
import { type ClientTraffic, createClientTraffic } from "./client-traffic.ts";
import { driving } from "./load.ts";
import { cpuMsOf, farmPids } from "./farm-processes.ts";

const ADMIN = "bench-admin";
const ROUND_S = Number(process.env.AB_ROUND_S ?? 2);

interface Farm {
  label: string;
  pids: number[];
  stop(): Promise<void>;
  targets: Pick<ClientTraffic, "hop" | "crawl" | "reads" | "tokenCrawl" | "faultedCrawl">;
  /** Where each target's cycle through its paths stands. */
  at: Record<string, { next: number }>;
}

async function startFarm(label: string, root: string): Promise<Farm> {
  const before = new Set(farmPids());
  const { startLocalFarm } = (await import(join(root, "scripts", "farm", "local-farm.ts"))) as typeof import("../farm/local-farm.ts");
  const farm = await startLocalFarm({ port: 0, adminToken: ADMIN });
  const pids = farmPids().filter((p) => !before.has(p));
  const { hop, crawl, reads, tokenCrawl, faultedCrawl } = await createClientTraffic(farm.url, ADMIN);
  const targets = { hop, crawl, reads, tokenCrawl, faultedCrawl };
  return { label, pids, stop: () => farm.stop(), targets, at: Object.fromEntries(Object.keys(targets).map((t) => [t, { next: 0 }])) };
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
    const targets = Object.keys(base.targets) as (keyof Farm["targets"])[];
    const seen = new Map<Farm, Record<string, { cpu: number[]; rps: number[] }>>();
    for (const f of [base, work]) seen.set(f, Object.fromEntries(targets.map((t) => [t, { cpu: [], rps: [] }])));
    for (const f of [base, work]) for (const t of targets) await autocannon(driving({ target: t, ...f.targets[t] }, 16, 1, f.at[t]));
    // Every round measures every target on both farms, so each farm's hop is measured beside its own reads.
    for (let i = 0; i < rounds; i++) {
      for (const t of targets) {
        for (const f of i % 2 ? [work, base] : [base, work]) {
          const cpu0 = cpuMsOf(f.pids);
          const r = await autocannon(driving({ target: t, ...f.targets[t] }, 16, ROUND_S, f.at[t]));
          seen.get(f)![t].cpu.push(((cpuMsOf(f.pids) - cpu0) * 1000) / Math.max(1, r.requests.total));
          seen.get(f)![t].rps.push(r.requests.average);
        }
      }
    }
    const b = seen.get(base)!;
    const w = seen.get(work)!;
    for (const t of targets) {
      console.log(
        `${t.padEnd(12)} ${base.label}: ${median(b[t].cpu).toFixed(0).padStart(5)} µs/req ${median(b[t].rps).toFixed(0).padStart(5)} req/s | working tree: ${median(w[t].cpu).toFixed(0).padStart(5)} µs/req ${median(w[t].rps).toFixed(0).padStart(5)} req/s | CPU ${((median(w[t].cpu) / median(b[t].cpu) - 1) * 100).toFixed(1)}%`,
      );
    }
    // The issue's own measure: a target's throughput as a share of the same farm's hop, round by round.
    const share = (s: Record<string, { rps: number[] }>, t: string) => median(s[t].rps.map((rps, i) => rps / s.hop.rps[i])) * 100;
    for (const t of targets.filter((t) => t !== "hop")) console.log(`${t.padEnd(12)} share of the hop: ${base.label} ${share(b, t).toFixed(0)}% | working tree ${share(w, t).toFixed(0)}%`);
  } finally {
    await base.stop();
    await work.stop();
  }
}

await main();
