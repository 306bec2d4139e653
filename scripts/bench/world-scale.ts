/**
 * @module world-scale
 * Many live worlds on one local farm: each created and made to answer a list
 * page, with the farm's memory (the resident size of this process's workerd
 * descendants, read from /proc) before and after. Linux only, as the farm is
 * measured on this machine.
 */
import { farmRssMb } from "./farm-processes.ts";

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
