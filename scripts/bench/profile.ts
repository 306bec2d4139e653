/**
 * @module profile
 * Where a vendor request's time goes inside workerd: drives one target of
 * the bench's client traffic (distinct requests in turn, `client-traffic.ts`)
 * under load while V8's sampling profiler runs in the farm Worker's isolate
 * (world objects run in it too), then prints self time by function.
 *
 *   npm run bench:profile -- [reads|crawl|tokenCrawl|faultedCrawl|hop] [seconds] [--alloc]
 *
 * With `--alloc` it samples allocations instead (V8's sampling heap profiler,
 * counting objects already collected) and prints the bytes each function
 * allocates per request: what drives the isolate's garbage collections.
 *
 * The raw profile is written to bench-results/<target>.cpuprofile (open it in
 * Chrome's DevTools, Performance tab).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { startLocalFarm } from "../farm/local-farm.ts";
import { projectRoot } from "../farm/paths.ts";
import { freePort } from "../harness/connector-process.ts";
import { type ClientTraffic, createClientTraffic } from "./client-traffic.ts";
import { driving } from "./load.ts";

const ADMIN = "bench-admin";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** A minimal Chrome DevTools Protocol session over the inspector's WebSocket. */
async function inspect(wsUrl: string): Promise<{ send: (method: string, params?: object) => Promise<any>; close: () => void }> {
  const ws = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve, { once: true });
    ws.addEventListener("error", reject, { once: true });
  });
  let next = 1;
  const waiting = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  ws.addEventListener("message", (ev) => {
    const msg = JSON.parse(String(ev.data));
    const w = msg.id === undefined ? undefined : waiting.get(msg.id);
    if (!w) return;
    waiting.delete(msg.id);
    if (msg.error) w.reject(new Error(`${msg.error.message}`));
    else w.resolve(msg.result);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}

/** A profile node's name: function, file and line. */
function label(n: ProfileNode): string {
  return `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.split("/").pop() ?? ""}:${n.callFrame.lineNumber + 1}`;
}

/** Self time per function (ms), largest first. */
function selfTimes(p: CpuProfile): { name: string; ms: number }[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  const samples = p.samples ?? [];
  const deltas = p.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const name = label(byId.get(samples[i])!);
    out.set(name, (out.get(name) ?? 0) + (deltas[i] ?? 0) / 1000);
  }
  return [...out].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
}

/** Total time per function (ms) including what it calls, counted once per sample however deep it recurses, largest first. */
function totalTimes(p: CpuProfile): { name: string; ms: number }[] {
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  const samples = p.samples ?? [];
  const deltas = p.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const seen = new Set<string>();
    for (let id: number | undefined = samples[i]; id !== undefined; id = parent.get(id)) {
      const name = label(byId.get(id)!);
      if (seen.has(name)) continue;
      seen.add(name);
      out.set(name, (out.get(name) ?? 0) + (deltas[i] ?? 0) / 1000);
    }
  }
  return [...out].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
}

interface SamplingHeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingHeapNode[];
}

/** Bytes allocated per function over a sampling heap profile, largest first. */
function allocations(head: SamplingHeapNode): { name: string; bytes: number }[] {
  const out = new Map<string, number>();
  const stack = [head];
  for (let n = stack.pop(); n; n = stack.pop()) {
    const name = label({ id: 0, callFrame: n.callFrame });
    if (n.selfSize) out.set(name, (out.get(name) ?? 0) + n.selfSize);
    stack.push(...n.children);
  }
  return [...out].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2).filter((a) => a !== "--alloc");
  const alloc = process.argv.includes("--alloc");
  const target = args[0] ?? "reads";
  const seconds = Number(args[1] ?? 5);
  const inspectorPort = await freePort();
  const farm = await startLocalFarm({ port: 0, adminToken: ADMIN, inspectorPort });
  try {
    const { hop, crawl, reads, tokenCrawl, faultedCrawl } = await createClientTraffic(farm.url, ADMIN);
    const targets: Record<string, ClientTraffic["hop"]> = { hop, crawl, reads, tokenCrawl, faultedCrawl };
    if (!(target in targets)) throw new Error(`target must be one of ${Object.keys(targets).join(", ")}`);
    const at = { next: 0 };
    const drive = (duration: number) => autocannon(driving({ target, ...targets[target] }, 16, duration, at));
    await drive(1);

    const isolates = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as { id: string; title: string; webSocketDebuggerUrl: string }[];
    const farmTarget = isolates.find((t) => t.title.includes("wirebench-farm")) ?? isolates[0];
    const session = await inspect(farmTarget.webSocketDebuggerUrl ?? `ws://127.0.0.1:${inspectorPort}/${farmTarget.id}`);
    if (alloc) {
      await session.send("HeapProfiler.enable");
      await session.send("HeapProfiler.startSampling", { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
      const load = await drive(seconds);
      const { profile } = (await session.send("HeapProfiler.stopSampling")) as { profile: { head: SamplingHeapNode } };
      session.close();
      const rows = allocations(profile.head);
      const total = rows.reduce((s, r) => s + r.bytes, 0);
      const n = load.requests.total;
      console.log(`${target}: ${Math.round(load.requests.average)} req/s at 16 connections; ${Math.round(total / n)} bytes allocated in the farm isolate per request (sampled)`);
      for (const r of rows.slice(0, 40)) console.log(`${String(Math.round(r.bytes / n)).padStart(7)} B  ${r.name}`);
      return;
    }
    await session.send("Profiler.enable");
    await session.send("Profiler.setSamplingInterval", { interval: 200 });
    await session.send("Profiler.start");
    const load = await drive(seconds);
    const { profile } = (await session.send("Profiler.stop")) as { profile: CpuProfile };
    session.close();

    const dir = join(projectRoot(), "bench-results");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${target}.cpuprofile`), JSON.stringify(profile));
    const total = (profile.endTime - profile.startTime) / 1000;
    const rows = selfTimes(profile);
    const idle = rows.filter((r) => r.name.startsWith("(idle)")).reduce((s, r) => s + r.ms, 0);
    console.log(`${target}: ${Math.round(load.requests.average)} req/s at 16 connections; isolate busy ${Math.round(total - idle)} of ${Math.round(total)} ms`);
    console.log(`per request: ${(((total - idle) / load.requests.total) * 1000).toFixed(0)} µs of JavaScript in the farm isolate`);
    const busy = total - idle;
    console.log("\nself time");
    for (const r of rows.slice(0, 30)) console.log(`${r.ms.toFixed(0).padStart(7)} ms  ${((r.ms / busy) * 100).toFixed(1).padStart(5)}%  ${r.name}`);
    console.log("\ntotal time (with callees), the farm's own functions");
    for (const r of totalTimes(profile)
      .filter((r) => r.name.includes("farm.js"))
      .slice(0, 45))
      console.log(`${r.ms.toFixed(0).padStart(7)} ms  ${((r.ms / busy) * 100).toFixed(1).padStart(5)}%  ${r.name}`);
  } finally {
    await farm.stop();
  }
}

await main();
