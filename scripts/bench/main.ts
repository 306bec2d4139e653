/**
 * @module main
 * `npm run bench -- [--out <file>] [--date <YYYY-MM-DD>]`: the farm's
 * throughput on client traffic beside the hop and Prism, world creation,
 * recreate and live worlds. Writes the report to `--out` (default
 * `bench-results/farm.json`); `--date` is the date the report names (the
 * caller's; the report holds no clock reading), beside the machine's facts.
 * The `wirebench bench` command passes them as BENCH_OUT and BENCH_DATE.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { startLocalFarm } from "../farm/local-farm.ts";
import { projectRoot } from "../farm/paths.ts";
import { type LoadResult, type LoadTarget, measureInRounds } from "./load.ts";
import { startPrism } from "./prism.ts";
import { VENDORS } from "../../declarations/vendors/index.ts";
import { gatewayStyle } from "../../mechanics/gateways/index.ts";
import { firstPageFromDocs } from "../contract/openapi-contract.ts";
import { firstPageFromWsdl } from "../contract/wsdl-contract.ts";
import { worldScale } from "./world-scale.ts";
import { createClientTraffic } from "./client-traffic.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** Interleaved rounds the SECONDS of each target are split into. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
/** Live worlds the scale measurement creates (issue 15's target is 10,000 under 3 GB). */
const WORLDS = Number(process.env.BENCH_WORLDS ?? 1000);
const ADMIN = "bench-admin";

/** Where the report goes and the date it names: from the command line when this file is run, else from the environment. */
function reportOptions(): { out: string; date: string | null } {
  const direct = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
  const given = direct
    ? parseArgs({ args: process.argv.slice(2), options: { out: { type: "string" }, date: { type: "string" } } }).values
    : { out: process.env.BENCH_OUT, date: process.env.BENCH_DATE };
  const date = given.date ?? null;
  if (date !== null && !/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`--date must be a date as YYYY-MM-DD, got "${date}"`);
  return { out: resolve(given.out ?? join(projectRoot(), "bench-results", "farm.json")), date };
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

const round = (n: number) => Math.round(n * 10) / 10;

async function control(farm: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${farm}${path}`, { method, headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function main(): Promise<void> {
  const { out, date } = reportOptions();
  const load1 = loadavg()[0];
  const farm = await startLocalFarm({ port: 0, adminToken: ADMIN });
  console.error(`farm on ${farm.url} (storage: ${farm.storage}); ${SECONDS}s per measurement`);
  const load: LoadResult[] = [];
  try {
    const world = await createClientTraffic(farm.url, ADMIN);
    const prism = await startPrism(4010 + (process.pid % 500), world.examplePage);
    try {
      const targets: LoadTarget[] = [
        { target: "Durable Object hop (a live world's /_health, no work)", ...world.hop },
        { target: "crawl: every 50-row page in turn (API key)", ...world.crawl },
        { target: "reads: every record in turn (API key)", ...world.reads },
        { target: "token crawl: every 50-row page (minted bearer)", ...world.tokenCrawl },
        { target: "faulted crawl: task-0006's world, faults armed", ...world.faultedCrawl },
        {
          target: "Prism mock (50-row example, no state, no log)",
          url: prism.url,
          headers: {},
          paths: world.crawl.paths.map((p) => `/v1/candidates${p.slice(p.indexOf("?"))}`),
        },
      ];
      for (const c of [1, 16]) load.push(...(await measureInRounds(targets, c, SECONDS, ROUNDS)));
    } finally {
      prism.stop();
    }
    const logged = await control(farm.url, "GET", `/v1/worlds/${world.world}`);

    const docs: Record<string, unknown> = {};
    const wsdls: Record<string, string> = {};
    const creation: number[] = [];
    for (let i = 0; i < 25; i++) {
      const t0 = performance.now();
      const w = await control(farm.url, "POST", "/v1/worlds", { vendors: { ats: "hirewire" }, seed: 100 + i });
      const res = await fetch(`${w.vendors.ats.baseUrl}/v1/candidates?per_page=50`, { headers: { "x-api-key": w.vendors.ats.credentials.api_key } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`first page answered ${res.status}`);
      creation.push(performance.now() - t0);
    }

    // Every vendor: a world created and its first page read by a client that knows only the true documents.
    const perVendor: { vendor: string; runs: number; p50: number; p99: number }[] = [];
    for (const vendor of Object.keys(VENDORS)) {
      const times: number[] = [];
      for (let i = 0; i < 10; i++) {
        const t0 = performance.now();
        const w = await control(farm.url, "POST", "/v1/worlds", { vendors: { ats: vendor }, seed: 200 + i });
        const docUrl = `${w.vendors.ats.baseUrl}/_docs/openapi.json`;
        const doc = i === 0 ? ((docs[vendor] = await (await fetch(docUrl)).json()) as Record<string, unknown>) : docs[vendor];
        // A vendor reached only through a SOAP gateway is paged through its WSDL's first list operation.
        const soap = VENDORS[vendor].resources.some((r) => r.list) ? undefined : VENDORS[vendor].gateways.find((g) => gatewayStyle(g).description !== undefined);
        if (soap && i === 0) wsdls[vendor] = await (await fetch(`${w.vendors.ats.baseUrl}/_docs/${soap.service}.wsdl`)).text();
        const target = { baseUrl: w.vendors.ats.baseUrl, credentials: w.vendors.ats.credentials };
        const status = soap ? await firstPageFromWsdl({ ...target, wsdl: wsdls[vendor], openapi: doc as never }) : await firstPageFromDocs({ ...target, doc: doc as never });
        if (status !== 200) throw new Error(`${vendor}: first page answered ${status}`);
        if (i > 0) times.push(performance.now() - t0);
      }
      perVendor.push({ vendor, runs: times.length, p50: round(percentile(times, 50)), p99: round(percentile(times, 99)) });
    }

    const big = await control(farm.url, "POST", "/v1/worlds", { vendors: { ats: "staffline" }, seed: 1, scale: 8 });
    const bigStatus = await control(farm.url, "GET", `/v1/worlds/${big.world}`);
    const cold: number[] = [];
    const recreate: number[] = [];
    for (let i = 0; i < 18; i++) {
      const t0 = performance.now();
      await control(farm.url, "POST", `/v1/worlds/${big.world}/roles/ats/recreate`, { checkpoint: i % 3 });
      (i < 3 ? cold : recreate).push(performance.now() - t0);
    }

    const scale = await worldScale(farm.url, ADMIN, WORLDS);

    const get = (target: string, c: number) => load.find((r) => r.target.startsWith(target) && r.connections === c)!;
    /** `a`'s req/s over `b`'s at 16 connections, round by round (each round measures both). */
    const roundRatios = (a: string, b: string) => {
      const [x, y] = [get(a, 16).rpsByRound!, get(b, 16).rpsByRound!];
      return x.map((v, i) => v / y[i]);
    };
    /** The median of the rounds' ratios. */
    const ratio = (a: string, b: string) => percentile(roundRatios(a, b), 50);
    /** The middle half of the rounds' ratios in percent: how much one run's median can be trusted. */
    const middleHalf = (a: string, b: string) => {
      const r = roundRatios(a, b);
      return `${round(percentile(r, 25) * 100)}–${round(percentile(r, 75) * 100)} %`;
    };
    /** A target's share of the hop (round by round), against a floor when it has a target. */
    const share = (t: string, floor?: number) => ({
      value: round(ratio(t, "Durable") * 100),
      rounds: middleHalf(t, "Durable"),
      target: floor === undefined ? "(context: % of the DO hop)" : `>= ${floor * 100}% of the DO hop`,
      met: floor === undefined || ratio(t, "Durable") >= floor,
    });
    /** A target's throughput over Prism's (round by round). */
    const overPrism = (t: string, floor?: number) => ({
      value: round(ratio(t, "Prism")),
      target: floor === undefined ? "(context: x Prism)" : `>= ${floor}x Prism`,
      met: floor === undefined || ratio(t, "Prism") >= floor,
    });
    const report = {
      /** The date the run's caller gave (--date), not a clock reading. */
      date,
      machine: {
        cores: availableParallelism(),
        cpu: cpus()[0]?.model ?? "unknown",
        node: process.version,
        /** The one-minute load average when the run began: other work on the machine. */
        loadAverageAtStart: Math.round(load1 * 10) / 10,
        /** Where the farm kept its storage (see scripts/farm/scratch-storage.ts). */
        farmStorage: farm.storage,
      },
      method: { secondsPerMeasurement: SECONDS, rounds: ROUNDS, worlds: WORLDS },
      load,
      loggedRequests: logged.roles.ats.requests,
      worldCreationPlusFirstPageMs: { runs: creation.length, p50: round(percentile(creation, 50)), p99: round(percentile(creation, 99)) },
      /** Per vendor: world creation plus the first page, read from the true documents (token mints included); the run that also fetched the document is left out. */
      worldCreationPlusFirstPageByVendorMs: perVendor,
      /** Live HireWire worlds, each answering a 50-row page: time per world and the farm's resident memory. */
      worldScale: scale,
      recreate: {
        records: bigStatus.roles.ats.records,
        firstToEachCheckpointMs: cold.map(round),
        runs: recreate.length,
        p50Ms: round(percentile(recreate, 50)),
        p99Ms: round(percentile(recreate, 99)),
      },
      targets: {
        crawlVsHopAt16: share("crawl", 0.75),
        readsVsHopAt16: share("reads", 0.75),
        crawlVsPrismAt16: overPrism("crawl", 3),
        readsVsPrismAt16: overPrism("reads", 3),
        tokenCrawlVsHopAt16: share("token crawl"),
        tokenCrawlVsPrismAt16: overPrism("token crawl"),
        faultedCrawlVsHopAt16: share("faulted crawl"),
        faultedCrawlVsPrismAt16: overPrism("faulted crawl"),
        worldCreationPlusFirstPage: { value: round(percentile(creation, 50)), target: "<= 50 ms (p50)", met: percentile(creation, 50) <= 50 },
        liveWorlds: {
          value: scale.rssAfterMb,
          target: `10,000 live worlds <= 3,072 MB RSS (measured ${scale.worlds}; BENCH_WORLDS=10000 for the target)`,
          met: scale.worlds >= 10_000 && scale.rssAfterMb <= 3072,
        },
        recreate5000: { value: round(percentile(recreate, 50)), target: "<= 100 ms (p50)", met: percentile(recreate, 50) <= 100 },
      },
    };

    console.log("\nthroughput");
    console.log(`conn  ${"target".padEnd(54)}  req/s   p50 ms  p99 ms  non2xx  farm CPU µs/req`);
    for (const r of load)
      console.log(
        `${String(r.connections).padStart(4)}  ${r.target.padEnd(54)} ${String(r.rps).padStart(6)}  ${String(r.p50).padStart(6)}  ${String(r.p99).padStart(6)}  ${String(r.non2xx + r.errors).padStart(6)}  ${r.target.startsWith("Prism") ? "" : r.farmCpuUsPerRequest}`,
      );
    console.log(`\nworld creation + first page: p50 ${report.worldCreationPlusFirstPageMs.p50} ms, p99 ${report.worldCreationPlusFirstPageMs.p99} ms (${creation.length} runs)`);
    console.log("\nworld creation + first page, by vendor (from the true documents, mints included)");
    for (const v of perVendor) console.log(`  ${v.vendor.padEnd(12)} p50 ${String(v.p50).padStart(6)} ms  p99 ${String(v.p99).padStart(6)} ms  (${v.runs} runs)`);
    console.log(
      `recreate of ${report.recreate.records} records: p50 ${report.recreate.p50Ms} ms, p99 ${report.recreate.p99Ms} ms (${recreate.length} runs); first recreate to each checkpoint (state built): ${cold.map(round).join(", ")} ms`,
    );
    console.log(
      `${scale.worlds} live worlds: ${scale.msPerWorld.p50} ms p50 per world (creation + first page); farm RSS ${scale.rssBeforeMb} -> ${scale.rssAfterMb} MB, ${scale.mbPerWorld} MB per world`,
    );
    console.log("\ntargets");
    for (const [name, t] of Object.entries(report.targets))
      console.log(`  ${t.met ? "met " : "MISS"}  ${name}: ${t.value}${"rounds" in t ? ` (middle half of the rounds ${t.rounds})` : ""} (target ${t.target})`);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(report, null, 2) + "\n");
    console.log(`\nwritten to ${out}`);
  } finally {
    await farm.stop();
  }
}

await main();
