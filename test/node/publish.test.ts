import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalFarm } from "../../scripts/farm/local-farm.ts";
import { bundleDirs } from "../../scripts/publish/runs.ts";
import { startFarm, TEST_ADMIN } from "./farm.ts";
import { heldOutFolder } from "./held-out-folder.ts";
import { runCli } from "./run-cli.ts";

let farm: LocalFarm;
const runs = mkdtempSync(join(tmpdir(), "wb-pub-runs-"));
const ENV = { WIREBENCH_ADMIN_TOKEN: TEST_ADMIN };
const data = (site: string, ...p: string[]) => join(site, "data", "v1", "wirebench", ...p);
const json = (file: string) => JSON.parse(readFileSync(file, "utf8"));

function publishTo(from: string, extra: string[] = [], env: Record<string, string> = {}) {
  const out = mkdtempSync(join(tmpdir(), "wb-site-"));
  const r = runCli(["publish", "--runs", from, "--out", out, "--release", "test", "--generated-at", "2026-12-01T00:00:00Z", ...extra], { ...ENV, ...env });
  return { ...r, out };
}

/** A copy of the runs folder to tamper with. */
function copyRuns(): string {
  const dir = mkdtempSync(join(tmpdir(), "wb-pub-copy-"));
  cpSync(runs, dir, { recursive: true });
  return dir;
}

beforeAll(async () => {
  farm = await startFarm();
  for (const model of ["scripted:gold", "scripted:nothing"]) {
    const r = runCli(["run-all", "task-0001", "--agent", "direct", "--model", model, "--trials", "2", "--farm", farm.url, "--out", runs], ENV, 240_000);
    if (r.code !== 0) throw new Error(r.stderr);
  }
}, 300_000);
afterAll(async () => {
  await farm?.stop();
});

/** Every file of a site, relative to it. */
const siteFiles = (site: string) =>
  readdirSync(site, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));

describe("wirebench publish", () => {
  it("with --public-only keeps a held-out task out of every file but a labelled aggregate; without it, publishes it like a public one", () => {
    const folder = heldOutFolder("task-0001", "task-9001");
    const copy = copyRuns();
    // The gold model's attempts become attempts of a held-out copy of the task.
    for (const dir of bundleDirs(copy)) {
      const summary = json(join(dir, "summary.json"));
      if (summary.model !== "scripted:gold") continue;
      writeFileSync(join(dir, "summary.json"), JSON.stringify({ ...summary, task: "task-9001" }));
      const verdict = json(join(dir, "verdict.json"));
      writeFileSync(join(dir, "verdict.json"), JSON.stringify({ ...verdict, task: "task-9001" }));
    }
    const held = publishTo(copy, ["--public-only"], { WIREBENCH_TASKS: folder });
    expect(held.code, held.stderr).toBe(0);
    const manifest = json(data(held.out, "manifest.json"));
    expect(manifest.tasks).toEqual(["task-0001"]);
    expect(manifest.held_out).toMatchObject({ tasks: 1, attempts: 2, rows: [{ model: "scripted:gold", attempts: 2, mean_score: 100, solve_rate: 1 }] });
    expect(manifest.held_out.label).toMatch(/held-out tasks only/);
    expect(json(data(held.out, "leaderboard.json")).held_out).toEqual(manifest.held_out);
    for (const f of siteFiles(held.out)) expect(readFileSync(f).includes("task-9001"), f).toBe(false);
    const full = publishTo(copy, [], { WIREBENCH_TASKS: folder });
    expect(full.code, full.stderr).toBe(0);
    expect(json(data(full.out, "manifest.json"))).toMatchObject({ tasks: ["task-0001", "task-9001"] });
    expect(json(data(full.out, "manifest.json")).held_out).toBeUndefined();
  });

  it("writes the data files and pages, and the same runs give byte-identical releases", () => {
    const a = publishTo(runs);
    const b = publishTo(runs);
    expect(a.code, a.stderr).toBe(0);
    const list = (site: string) =>
      readdirSync(site, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name).slice(site.length))
        .sort();
    expect(list(a.out)).toEqual(list(b.out));
    for (const f of list(a.out)) expect(readFileSync(join(b.out, f)), f).toEqual(readFileSync(join(a.out, f)));
    for (const f of ["manifest.json", "leaderboard.json", "matrix.json", "models/scripted_gold.json", "tasks/task-0001.json"]) expect(list(a.out)).toContain(`/data/v1/wirebench/${f}`);
    const manifest = json(data(a.out, "manifest.json"));
    expect(manifest).toMatchObject({
      release: "test",
      generated_at: "2026-12-01T00:00:00Z",
      scorer: "task-score-v4-mandatory-gated",
      models: ["scripted:gold", "scripted:nothing"],
      lanes: ["direct"],
      tasks: ["task-0001"],
      counts: { attempts: 4, graded: 4, flagged: 0 },
    });
    const board = json(data(a.out, "leaderboard.json")).rows;
    expect(board.map((r: { model: string }) => r.model)).toEqual(["scripted:gold", "scripted:nothing"]);
    expect(board[0]).toMatchObject({ mean_score: 100, solve_rate: 1, pass_k: { k: 2, value: 1 } });
    expect(board[0].score_ci.low).toBeGreaterThan(board[1].score_ci.high);
    const attemptFiles = list(a.out).filter((f) => f.includes("/attempts/scripted_gold/task-0001/"));
    for (const f of ["summary.json", "verdict.json", "trajectory.json", "vendor-requests.json", "patch.diff", "transcript.jsonl", "problem.md", "evidence.json.gz"])
      expect(
        attemptFiles.some((x) => x.endsWith(`/${f}`)),
        f,
      ).toBe(true);
    expect(readFileSync(join(a.out, "index.html"), "utf8")).toContain('data-page="leaderboard"');
    // The task page carries each of gold's checks with its basis beside its pass rates.
    const taskChecks = json(data(a.out, "tasks", "task-0001.json")).checks as { name: string; mandatory: boolean; basis: { ticket?: string; vendor?: string }; pass_rate: number }[];
    expect(taskChecks.length).toBeGreaterThan(10);
    for (const c of taskChecks) expect(Object.keys(c.basis), c.name).toHaveLength(1);
    for (const c of taskChecks.filter((x) => x.mandatory)) expect(c.basis.ticket, c.name).toBeTruthy();
    expect(taskChecks.find((c) => c.name === "deletes_from_tombstones_applied")).toMatchObject({
      basis: { ticket: "A record deleted in StaffLine stays in the mirror with `is_deleted: true`." },
      pass_rate: 0.5,
    });
    expect(taskChecks.find((c) => c.name === "no_credentials_in_query_string")?.basis).toEqual({ ticket: "Credentials belong in headers, never in URLs" });
    // Nothing of this machine's paths is published.
    for (const f of list(a.out).filter((x) => !x.startsWith("/assets/"))) expect(readFileSync(join(a.out, f), "utf8"), f).not.toContain(tmpdir() + "/wb-");
  });

  it("scores from the verdicts, never from summaries, and counts an attempt without a verdict as 0, flagged", () => {
    const copy = copyRuns();
    const gold = readdirSync(copy)
      .filter((d) => d.includes("scripted_gold"))
      .sort();
    const summaryFile = join(copy, gold[0], "summary.json");
    writeFileSync(summaryFile, JSON.stringify({ ...json(summaryFile), score: 3, solved: false }));
    rmSync(join(copy, gold[1], "verdict.json"));
    const r = publishTo(copy);
    expect(r.code, r.stderr).toBe(0);
    const row = json(data(r.out, "leaderboard.json")).rows.find((x: { model: string }) => x.model === "scripted:gold");
    expect(row).toMatchObject({ mean_score: 50, flagged: 1, attempts: 2 });
    const published = json(join(data(r.out, "attempts", "scripted_gold", "task-0001", gold[0]), "summary.json"));
    expect(published).toMatchObject({ score: 100, solved: true, flag: null });
  });

  it("keeps self-reported runs off the leaderboard, counting and flagging them", () => {
    const copy = copyRuns();
    // Gold's verdicts as a participant's own harness would have sealed them.
    for (const d of readdirSync(copy).filter((x) => x.includes("scripted_gold"))) {
      const verdictFile = join(copy, d, "verdict.json");
      writeFileSync(verdictFile, JSON.stringify({ ...json(verdictFile), selfReported: true }));
    }
    const r = publishTo(copy);
    expect(r.code, r.stderr).toBe(0);
    expect(json(data(r.out, "leaderboard.json")).rows.map((x: { model: string }) => x.model)).toEqual(["scripted:nothing"]);
    expect(json(data(r.out, "manifest.json")).counts).toMatchObject({ attempts: 4, self_reported: 2, rows: 1 });
    const gold = readdirSync(copy).find((x) => x.includes("scripted_gold"))!;
    const published = json(join(data(r.out, "attempts", "scripted_gold", "task-0001", gold), "summary.json"));
    expect(published.flag).toMatch(/^self-reported/);
  });

  it("refuses a release that holds a registered provider secret, naming the file", () => {
    const copy = copyRuns();
    const one = readdirSync(copy).sort()[0];
    writeFileSync(join(copy, one, "transcript.jsonl"), `${readFileSync(join(copy, one, "transcript.jsonl"), "utf8")}{"leak":"sk-live-provider-0123456789"}\n`);
    const r = publishTo(copy, [], { OPENAI_API_KEY: "sk-live-provider-0123456789" });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`secret is in data/v1/wirebench/attempts/.*/${one}/transcript.jsonl`));
  });
});

describe("wirebench regrade and compare", () => {
  it("re-derives every verdict from the published evidence alone, and reports a tampered verdict", () => {
    const site = publishTo(runs).out;
    const clean = runCli(["regrade", site, "--json"], ENV);
    expect(clean.code, clean.stderr).toBe(0);
    expect(JSON.parse(clean.stdout)).toMatchObject({ attempts: 4, regraded: 4, differences: [] });
    const dir = readdirSync(data(site, "attempts", "scripted_gold", "task-0001"))[0];
    const file = join(data(site, "attempts", "scripted_gold", "task-0001", dir), "verdict.json");
    const v = json(file);
    const check = v.checks.l1[0];
    v.checks.l1[0] = { ...check, ok: !check.ok, value: check.ok ? check.fail : check.pass };
    writeFileSync(file, JSON.stringify(v));
    const tampered = runCli(["regrade", site], ENV);
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toContain(`DIFF ${dir} ${check.name}`);
  });

  it("regrades a verdict written before unrecorded checks were listed with no difference, and its listed checks are gold's missing ones", () => {
    const site = publishTo(runs).out;
    const dirs = readdirSync(data(site, "attempts", "scripted_nothing", "task-0001"));
    let stripped = 0;
    for (const dir of dirs) {
      const file = join(data(site, "attempts", "scripted_nothing", "task-0001", dir), "verdict.json");
      const v = json(file);
      for (const level of ["l1", "l2", "l3"]) {
        const kept = v.checks[level].filter((c: { recorded?: boolean }) => c.recorded !== false);
        stripped += v.checks[level].length - kept.length;
        v.checks[level] = kept;
      }
      writeFileSync(file, JSON.stringify(v));
    }
    expect(stripped).toBeGreaterThan(dirs.length * 5);
    const r = runCli(["regrade", site, "--json"], ENV);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ attempts: 4, regraded: 4, differences: [] });
  });

  it("compares two models by a paired bootstrap over their common tasks", () => {
    const r = runCli(["compare", "scripted:gold", "scripted:nothing", "--runs", runs, "--json"], ENV);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ a: "scripted_gold--direct", b: "scripted_nothing--direct", tasks: 1, mean_diff: 100, p_order_reversed: 0 });
    const bad = runCli(["compare", "scripted:gold", "nobody", "--runs", runs], ENV);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no model or model--lane "nobody"/);
  });
});
