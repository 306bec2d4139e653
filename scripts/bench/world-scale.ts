/**
 * @module world-scale
 * Many live worlds on one local farm: each created and made to answer a list
 * page, with the farm's memory (the resident size of this process's workerd
 * descendants, read from /proc) before and after. Linux only, as the farm is
 * measured on this machine.
 */
import { readdirSync, readFileSync } from "node:fs";

/** What N live worlds cost. */
export interface WorldScale {
  worlds: number;
  /** Creation plus first page, per world. */
  msPerWorld: { p50: number; p99: number; mean: number };
  rssBeforeMb: number;
  rssAfterMb: number;
  /** (after - before) / worlds. */
  mbPerWorld: number;
}

/** Resident memory (MB) of the workerd processes descended from this one. */
export function farmRssMb(): number {
  const parent = new Map<number, number>();
  const name = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // `pid (comm) state ppid ...`; comm may hold spaces, so read around the last parenthesis.
      const close = stat.lastIndexOf(")");
      parent.set(Number(entry), Number(stat.slice(close + 2).split(" ")[1]));
      name.set(Number(entry), stat.slice(stat.indexOf("(") + 1, close));
    } catch {
      // The process ended while we looked.
    }
  }
  const mine = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  let kb = 0;
  for (const [pid, comm] of name) {
    if (!comm.includes("workerd") || !mine(pid)) continue;
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // Gone.
    }
  }
  return Math.round(kb / 1024);
}

/** Creates `n` HireWire worlds, each answering a 50-row page, and measures time and memory. */
export async function worldScale(farmUrl: string, admin: string, n: number): Promise<WorldScale> {
  const before = farmRssMb();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(`${farmUrl}/v1/worlds`, {
      method: "POST",
      headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
      body: JSON.stringify({ vendors: { ats: "hirewire" }, seed: 10_000 + i }),
    });
    if (res.status !== 201) throw new Error(`world ${i}: creation answered ${res.status} ${await res.text()}`);
    const w = (await res.json()) as { vendors: { ats: { baseUrl: string; credentials: { api_key: string } } } };
    const page = await fetch(`${w.vendors.ats.baseUrl}/v1/candidates?per_page=50`, { headers: { "x-api-key": w.vendors.ats.credentials.api_key } });
    await page.arrayBuffer();
    if (page.status !== 200) throw new Error(`world ${i}: first page answered ${page.status}`);
    times.push(performance.now() - t0);
  }
  const after = farmRssMb();
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 10) / 10;
  return {
    worlds: n,
    msPerWorld: { p50: at(50), p99: at(99), mean: Math.round((times.reduce((a, b) => a + b, 0) / n) * 10) / 10 },
    rssBeforeMb: before,
    rssAfterMb: after,
    mbPerWorld: Math.round(((after - before) / n) * 1000) / 1000,
  };
}
