/**
 * @module perf
 * Where the farm's CPU goes per request, native code included: drives each
 * bench target under load while Linux `perf` samples the farm's workerd
 * processes, then prints the CPU time per request by kind of code (V8's
 * runtime, its builtins and JIT code, the collector, kj's event loop, malloc,
 * memory copies, the kernel, ...). V8's own profiler (`bench:profile`) sees
 * only JavaScript; most of a request's cost is not.
 *
 *   npm run bench:perf -- [hop,single,list,floor] [seconds]
 *
 * Needs `perf` (Debian package `linux-perf`) and permission to sample the
 * farm's processes (`kernel.perf_event_paranoid` <= 2 for one's own).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { startLocalFarm } from "../farm/local-farm.ts";
import { type BenchWorld, createBenchWorld } from "./bench-world.ts";
import { farmPids } from "./farm-processes.ts";

const ADMIN = "bench-admin";
const HZ = 1999;

/** Kinds of code, by symbol; the first that matches names a sample's kind. */
const KINDS: [string, RegExp][] = [
  ["collector", /Heap|Mark|Scaveng|Sweep|GC|cppgc|Evacuat|Compact|Remembered|Minor|Major|Concurrent/],
  ["sqlite", /sqlite/i],
  ["js (jit)", /^0x|JIT|\[unknown\]/],
  ["js (builtins)", /^Builtins_/],
  ["v8 runtime", /v8::/],
  ["malloc", /tcmalloc|TCMalloc|malloc|free|cfree/],
  ["memory copies", /memmove|memset|memcpy|memcmp/],
  ["capnp (rpc)", /capnp/],
  ["kj (event loop)", /kj::|^kj/],
  ["jsg (bindings)", /jsg::/],
  ["workerd", /workerd/],
];

function kindOf(symbol: string, kernel: boolean): string {
  if (kernel) return "kernel";
  for (const [kind, re] of KINDS) if (re.test(symbol)) return kind;
  return "other";
}

/** Samples per kind in a perf recording. */
function samplesByKind(file: string): Map<string, number> {
  const out = new Map<string, number>();
  const report = execFileSync("perf", ["report", "-i", file, "--sort", "sym", "--stdio", "-n"], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024, stdio: ["ignore", "pipe", "ignore"] });
  for (const line of report.split("\n")) {
    const m = /^\s*[\d.]+%\s+(\d+)\s+\[(.)\]\s+(.*)$/.exec(line);
    if (!m) continue;
    const kind = kindOf(m[3].trim(), m[2] === "k");
    out.set(kind, (out.get(kind) ?? 0) + Number(m[1]));
  }
  return out;
}

async function main(): Promise<void> {
  try {
    execFileSync("perf", ["--version"], { stdio: "ignore" });
  } catch {
    throw new Error("perf is not installed (Debian: apt-get install linux-perf)");
  }
  const names = (process.argv[2] ?? "hop,single,list").split(",");
  const seconds = Number(process.argv[3] ?? 8);
  const dir = mkdtempSync(join(tmpdir(), "wirebench-perf-"));
  const farm = await startLocalFarm({ port: 0, adminToken: ADMIN });
  const perRequest = new Map<string, Map<string, number>>();
  try {
    const pids = farmPids();
    const { targets } = await createBenchWorld(farm.url, ADMIN);
    for (const name of names) {
      if (!(name in targets)) throw new Error(`target must be one of ${Object.keys(targets).join(", ")}`);
      const target = targets[name as keyof BenchWorld["targets"]];
      await autocannon({ ...target, connections: 16, duration: 2 });
      const file = join(dir, `${name}.data`);
      const recorder = spawn("perf", ["record", "-F", String(HZ), "-o", file, "-p", pids.join(",")], { stdio: "ignore" });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const load = await autocannon({ ...target, connections: 16, duration: seconds });
      recorder.kill("SIGINT");
      await new Promise((resolve) => recorder.on("exit", resolve));
      const usPerSample = 1e6 / HZ / load.requests.total;
      perRequest.set(name, new Map([...samplesByKind(file)].map(([kind, n]) => [kind, n * usPerSample])));
      console.error(`${name}: ${load.requests.total} requests in ${seconds} s`);
    }
  } finally {
    await farm.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const kinds = [...new Set([...perRequest.values()].flatMap((m) => [...m.keys()]))].sort();
  console.log(`farm CPU per request (µs) at 16 connections, by kind of code\n${"".padEnd(18)}${names.map((n) => n.padStart(9)).join("")}`);
  for (const kind of kinds) console.log(`${kind.padEnd(18)}${names.map((n) => (perRequest.get(n)!.get(kind) ?? 0).toFixed(1).padStart(9)).join("")}`);
  console.log(
    `${"total".padEnd(18)}${names
      .map((n) =>
        [...perRequest.get(n)!.values()]
          .reduce((a, b) => a + b, 0)
          .toFixed(1)
          .padStart(9),
      )
      .join("")}`,
  );
}

await main();
