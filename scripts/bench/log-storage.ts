/**
 * @module log-storage
 * What storing a request's log row costs the world object, per row, in farm
 * CPU time, with 1, 4 and 16 requests served per turn: through the real
 * `LogStore` (the turn's rows as one segment), as a segment of one per
 * request, and as one SQLite row per request with a column per field (the
 * layout before segments). Each measurement gets an object of its own;
 * rounds alternate the layouts.
 *
 *   npm run bench:log -- [rounds]
 */
import { join } from "node:path";
import { mkdirSync } from "node:fs";
import { Miniflare, convertV4MiniflareOptions } from "miniflare";
import { bundle } from "../farm/build-worker.ts";
import { projectRoot } from "../farm/paths.ts";
import { cpuMsOf, farmPids } from "./farm-processes.ts";

const TURNS = 2000;
const rounds = Number(process.argv[2] ?? 3);
const root = projectRoot();
mkdirSync(join(root, ".wirebench", "build"), { recursive: true });
const script = join(root, ".wirebench", "build", "log-storage-bench.js");
bundle(root, join(root, "scripts", "bench", "log-storage", "wrangler.toml"), script);

const mf = new Miniflare(
  convertV4MiniflareOptions({
    host: "127.0.0.1",
    port: 0,
    workers: [
      {
        name: "log-bench",
        modules: true,
        scriptPath: script,
        compatibilityDate: "2026-11-01",
        compatibilityFlags: ["nodejs_compat"],
        durableObjects: { BENCH: { className: "LogBench", useSQLite: true } },
      },
    ],
  } as never),
);
const url = await mf.ready;
const pids = farmPids();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seen = new Map<string, number[]>();
let object = 0;
try {
  for (let r = 0; r < rounds; r++)
    for (const perTurn of [1, 4, 16])
      for (const layout of ["logstore", "single", "rows"]) {
        const c0 = cpuMsOf(pids);
        const res = await fetch(`${url}?object=${object++}&layout=${layout}&turns=${TURNS}&perTurn=${perTurn}`);
        const { rows } = (await res.json()) as { rows: number };
        if (rows !== TURNS * perTurn) throw new Error(`${layout}: ${rows} rows logged, ${TURNS * perTurn} written`);
        const key = `${perTurn}/${layout}`;
        seen.set(key, [...(seen.get(key) ?? []), ((cpuMsOf(pids) - c0) * 1000) / rows]);
      }
  console.log(`farm CPU µs per logged row (median of ${rounds} rounds of ${TURNS} commits; each includes reading the rows back once)`);
  console.log("rows per commit  LogStore  a segment each  columns");
  const cell = (perTurn: number, layout: string, width: number) =>
    median(seen.get(`${perTurn}/${layout}`)!)
      .toFixed(1)
      .padStart(width);
  for (const perTurn of [1, 4, 16]) console.log(`${String(perTurn).padStart(15)}  ${cell(perTurn, "logstore", 8)}  ${cell(perTurn, "single", 14)}  ${cell(perTurn, "rows", 7)}`);
} finally {
  await mf.dispose();
}
