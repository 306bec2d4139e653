import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishCommand } from "../../scripts/cli/commands/publish.ts";
import { parseShard, shardOf } from "../../scripts/cli/commands/run.ts";
import { UsageError } from "../../scripts/kit/usage-error.ts";
import { publish } from "../../scripts/publish/publish.ts";
import type { LocalFarm } from "../../scripts/farm/local-farm.ts";
import { startFarm, TEST_ADMIN } from "./farm.ts";
import { runCli, runCliAsync } from "./run-cli.ts";

const ENV = { WIREBENCH_ADMIN_TOKEN: TEST_ADMIN, OPENAI_API_KEY: "" };
const TASKS = ["task-0001", "task-0004"];
const TRIALS = 2;
const DATA = join("data", "v1", "wirebench");

const sweepArgs = (farm: LocalFarm, out: string, extra: string[] = []) => [
  "run-all",
  ...TASKS,
  "--agent",
  "direct",
  "--model",
  "scripted:gold",
  "--trials",
  String(TRIALS),
  "--farm",
  farm.url,
  "--out",
  out,
  ...extra,
];
const jsonLines = (text: string) =>
  text
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));

/** `wirebench publish` as a child process. */
function publishTo(runs: string[]) {
  const out = mkdtempSync(join(tmpdir(), "wb-shard-site-"));
  const r = runCli(["publish", "--runs", ...runs, "--out", out, "--release", "test", "--generated-at", "2026-12-01T00:00:00Z"], ENV);
  return { ...r, out };
}

/** The same publication in this process (no CLI start-up), for the merges whose exit code is not the point. */
function publishHere(runs: string[]): string {
  const out = mkdtempSync(join(tmpdir(), "wb-shard-site-"));
  publish({ runsDirs: runs, outDir: out, release: "test", generatedAt: "2026-12-01T00:00:00Z" });
  return out;
}

const files = (site: string) =>
  readdirSync(site, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(site.length + 1))
    .sort();

/**
 * What two real runs of one attempt may differ in: clocks (timings, event and log
 * times) and the ids the farm mints (worlds, runs). Everything else must match.
 */
const CLOCK_KEYS = new Set(["timing", "t", "t_end", "ts", "atMs", "timestamp", "runId"]);
function normalised(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalised);
  if (typeof value === "string") return value.replace(/\brun_[0-9a-f]{16}\b/g, "run_<id>").replace(/\b(r\d+-(?:t\d{4}|v)-s\d+)-[0-9a-f]{16}\b/g, "$1-<id>");
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !CLOCK_KEYS.has(k))
      .map(([k, v]) => [k, normalised(v)]),
  );
}

/** The vendor requests of an attempt as method, path, query, status and tool-call event, per role and epoch (headers carry per-world credentials and signing times). */
function requestTrail(file: string) {
  const rows = (list: any[]) => list.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.query)} ${r.status} ${r.event ?? "-"}`);
  const v = JSON.parse(readFileSync(file, "utf8"));
  return {
    development: Object.fromEntries(Object.entries(v.development.roles).map(([role, list]) => [role, rows(list as any[])])),
    grading: Object.fromEntries(Object.entries(v.grading.roles).map(([role, epochs]) => [role, Object.fromEntries(Object.entries(epochs as object).map(([ep, list]) => [ep, rows(list)]))])),
  };
}

describe("run-all --shard i/n", () => {
  it.each(["0/3", "3/2", "x/y"])("refuses --shard %j with one line and exit 2 before it reaches the farm", (shard) => {
    const out = join(mkdtempSync(join(tmpdir(), "wb-shard-bad-")), "runs");
    // The farm URL is unreachable: a shard checked after the farm would fail on the farm instead.
    const r = runCli(["run-all", "task-0001", "--agent", "direct", "--model", "scripted:gold", "--shard", shard, "--farm", "http://127.0.0.1:9", "--out", out], ENV, 60_000);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(`--shard must be i/n with 1 <= i <= n (e.g. 2/4), got "${shard}"`);
    expect(existsSync(out)).toBe(false);
  });

  it("reads i/n with 1 <= i <= n and nothing else", () => {
    expect(parseShard("3/10")).toEqual({ index: 3, count: 10 });
    expect(parseShard("1/1")).toEqual({ index: 1, count: 1 });
    for (const bad of ["0/3", "3/2", "x/y", "1/0", "2", "1/2/3", "01/2", "-1/2", " 1/2", "1/2 ", "1.0/2", ""]) expect(() => parseShard(bad), bad).toThrow(UsageError);
  });

  it("deals the sorted attempts round-robin: a partition, balanced, whatever order the tasks came in", () => {
    const items = ["task-0007", "task-0001", "task-0004"].flatMap((id) => [1, 2, 3].map((trial) => ({ task: { id }, trial })));
    const key = (x: { task: { id: string }; trial: number }) => `${x.task.id} t${x.trial}`;
    const slices = [1, 2, 3, 4].map((index) => shardOf(items, { index, count: 4 }).map(key));
    expect(slices.map((s) => s.length)).toEqual([3, 2, 2, 2]);
    expect(slices.flat().sort()).toEqual(items.map(key).sort());
    expect(slices[0]).toEqual(["task-0001 t1", "task-0004 t2", "task-0007 t3"]);
    expect(shardOf([...items].reverse(), { index: 1, count: 4 }).map(key)).toEqual(slices[0]);
    expect(shardOf(items, { index: 1, count: 1 }).map(key)).toEqual(items.map(key).sort());
  });
});

describe("two shards of the scripted sweep publish to the same release as one unsharded sweep", () => {
  let farm: LocalFarm;
  const root = mkdtempSync(join(tmpdir(), "wb-shard-"));
  const whole = join(root, "whole");
  const slices = join(root, "slices");
  const slice = (i: number) => join(slices, String(i));
  let lines: { whole: any[]; shards: any[][] };
  /** The release of the two slices (published by the comparison below). */
  let merged = "";

  beforeAll(async () => {
    farm = await startFarm();
    // One farm, three sweeps at once: the unsharded one and both shards (as two machines would).
    const [a, s1, s2] = await Promise.all([
      ...[sweepArgs(farm, whole, ["--jobs", "2"]), sweepArgs(farm, slice(1), ["--shard", "1/2"]), sweepArgs(farm, slice(2), ["--shard", "2/2"])].map((args) => runCliAsync(args, ENV, 240_000)),
    ]);
    for (const r of [a, s1, s2]) if (r.code !== 0) throw new Error(`run-all exited ${r.code}: ${r.stderr}`);
    lines = { whole: jsonLines(a.stdout), shards: [jsonLines(s1.stdout), jsonLines(s2.stdout)] };
  }, 300_000);
  afterAll(async () => {
    await farm?.stop();
  });

  it("the shards split the sweep's attempts between them, each exactly once", () => {
    const ids = (rows: any[]) => rows.map((r) => r.attempt).sort();
    expect(ids(lines.whole)).toHaveLength(TASKS.length * TRIALS);
    expect(lines.whole.every((r) => r.score === 100)).toBe(true);
    expect(ids(lines.shards[0])).toEqual(["task-0001--direct--scripted_gold--s7--t1", "task-0004--direct--scripted_gold--s7--t1"]);
    expect(ids(lines.shards[1])).toEqual(["task-0001--direct--scripted_gold--s7--t2", "task-0004--direct--scripted_gold--s7--t2"]);
    expect([...ids(lines.shards[0]), ...ids(lines.shards[1])].sort()).toEqual(ids(lines.whole));
    expect(readdirSync(slice(1)).sort()).toEqual(ids(lines.shards[0]));
    expect(readdirSync(slice(2)).sort()).toEqual(ids(lines.shards[1]));
  });

  it("the merged slices give the unsharded release: the same files, the aggregates byte for byte, each attempt equal up to clocks and ids", () => {
    const a = publishTo([whole]);
    const b = publishTo([slice(1), slice(2)]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stdout).toMatch(/^published 4 attempts/);
    merged = b.out;
    expect(files(b.out)).toEqual(files(a.out));
    const data = files(a.out).filter((f) => f.startsWith(DATA));
    const aggregates = data.filter((f) => !f.includes("/attempts/"));
    expect(aggregates.map((f) => f.slice(DATA.length + 1))).toEqual(["leaderboard.json", "manifest.json", "matrix.json", "models/scripted_gold.json", "tasks/task-0001.json", "tasks/task-0004.json"]);
    for (const f of [...aggregates, "index.html", "tasks/task-0001.html", "models/scripted_gold.html"]) expect(readFileSync(join(b.out, f), "utf8"), f).toBe(readFileSync(join(a.out, f), "utf8"));
    const manifest = JSON.parse(readFileSync(join(b.out, DATA, "manifest.json"), "utf8"));
    expect(manifest).toMatchObject({ tasks: TASKS, counts: { attempts: 4, graded: 4, flagged: 0 } });
    expect(JSON.parse(readFileSync(join(b.out, DATA, "leaderboard.json"), "utf8")).rows[0]).toMatchObject({ mean_score: 100, pass_k: { k: 2, value: 1 } });

    const attempts = data.filter((f) => f.includes("/attempts/"));
    expect(attempts.filter((f) => f.endsWith("/summary.json"))).toHaveLength(4);
    // Each kind of file is compared its own way; every kind is there for each of the 4 attempts.
    const texts = attempts.filter((f) => f.endsWith("/patch.diff") || f.endsWith("/problem.md"));
    const trails = attempts.filter((f) => f.endsWith("/vendor-requests.json"));
    const documents = attempts.filter((f) => /\/(summary|verdict|trajectory|trajectory\.atif)\.json$/.test(f));
    expect([texts.length, trails.length, documents.length].map((n) => n >= 4)).toEqual([true, true, true]);
    for (const f of texts) expect(readFileSync(join(b.out, f), "utf8"), f).toBe(readFileSync(join(a.out, f), "utf8"));
    for (const f of trails) expect(requestTrail(join(b.out, f)), f).toEqual(requestTrail(join(a.out, f)));
    for (const f of documents) expect(normalised(JSON.parse(readFileSync(join(b.out, f), "utf8"))), f).toEqual(normalised(JSON.parse(readFileSync(join(a.out, f), "utf8"))));
    // The comparison can fail: two attempts of the sweep are not equal up to clocks and ids.
    const verdicts = attempts.filter((f) => f.endsWith("/verdict.json"));
    expect(normalised(JSON.parse(readFileSync(join(a.out, verdicts[0]), "utf8")))).not.toEqual(normalised(JSON.parse(readFileSync(join(a.out, verdicts[2]), "utf8"))));
  });

  it("a folder of slices publishes as its slices do; a slice given twice counts once; two different bundles of one attempt refuse the release, naming it", () => {
    expect(merged, "the comparison above published the slices").not.toBe("");
    const same = (site: string) => {
      expect(files(site)).toEqual(files(merged));
      for (const f of files(merged)) expect(readFileSync(join(site, f)).equals(readFileSync(join(merged, f))), f).toBe(true);
    };
    same(publishHere([slices]));

    // A copy of slice 1 and an empty slice (more shards than attempts) beside the two.
    const copy = join(root, "copy-of-1");
    cpSync(slice(1), copy, { recursive: true });
    const empty = join(root, "empty-slice");
    mkdirSync(empty);
    same(publishHere([slice(1), slice(2), copy, empty]));

    const attempt = "task-0004--direct--scripted_gold--s7--t1";
    writeFileSync(join(copy, attempt, "agent.log"), `${readFileSync(join(copy, attempt, "agent.log"), "utf8")}one more line\n`);
    const clash = publishTo([slice(1), slice(2), copy]);
    expect(clash.code).toBe(2);
    expect(clash.stderr.trim().split("\n")).toHaveLength(1);
    expect(clash.stderr).toContain(`attempt ${attempt} is in two runs folders with different bundles`);
    expect(clash.stderr).toContain(join(copy, attempt));

    const out = join(root, "never-written");
    expect(() => publishCommand({ runs: [slice(1), join(root, "no-such-slice")], out, release: "test" })).toThrow(/no such runs folder: .*no-such-slice/);
    expect(() => publishCommand({ runs: [empty], out, release: "test" })).toThrow(/no attempt bundles in/);
    expect(existsSync(out)).toBe(false);
  });
});
