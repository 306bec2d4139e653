/**
 * `wirebench grade-all --predictions`: submitted patches graded as attempts,
 * in the sandbox against fresh worlds, one bundle each, resumable; and a
 * release of those bundles published and regraded.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takePatch } from "../../scripts/agent/take-patch.ts";
import { findTask } from "../../declarations/tasks/index.ts";
import type { LocalFarm } from "../../scripts/farm/local-farm.ts";
import { probeSource, taskDir } from "../../scripts/harness/workspace.ts";
import { startFarm, TEST_ADMIN } from "./farm.ts";
import { runCliAsync } from "./run-cli.ts";

const TASKS = ["task-0001", "task-0004", "task-0002"];
const ENV = { WIREBENCH_ADMIN_TOKEN: TEST_ADMIN, WIREBENCH_KEY: "" };
let farm: LocalFarm;
const root = mkdtempSync(join(tmpdir(), "wb-grade-all-"));
const out = join(root, "runs");
const predictionsFile = join(root, "predictions.jsonl");
const json = (file: string) => JSON.parse(readFileSync(file, "utf8"));

function patchOf(task: string, probe: "gold" | "naive"): string {
  const taken = takePatch(join(taskDir(task), "repo"), probeSource(findTask(task)!.task, probe));
  if (!taken.ok) throw new Error(taken.reason);
  return taken.patch;
}

/** Gold's patch cut off inside its first hunk: git reads it as corrupt. */
function malformed(task: string): string {
  const gold = patchOf(task, "gold").split("\n");
  const hunk = gold.findIndex((l) => l.startsWith("@@"));
  return `${gold.slice(0, hunk + 2).join("\n")}\n@@ not a hunk header\n`;
}

const lineOf = (task: string, model: string, patch: string) => JSON.stringify({ task, model, patch });
let first: { code: number | null; stdout: string; stderr: string };
let naiveByGrade: Record<string, number>;
const summaries = () =>
  Object.fromEntries(
    first.stdout
      .trim()
      .split("\n")
      .map((l) => [JSON.parse(l).attempt, JSON.parse(l)]),
  );

beforeAll(async () => {
  farm = await startFarm();
  const lines: string[] = [];
  for (const task of TASKS) lines.push(lineOf(task, "probe-gold", patchOf(task, "gold")), lineOf(task, "probe-naive", patchOf(task, "naive")), lineOf(task, "probe-malformed", malformed(task)));
  // Malformed lines of the file itself: each reported by its number, none stopping the others.
  lines.splice(1, 0, "{not json", JSON.stringify({ task: "task-0001", model: "probe-gold" }), lineOf("task-9999", "probe-gold", ""), lineOf("task-0001", "has space", ""), "");
  lines.push(lineOf("task-0004", "probe-twice", ""), lineOf("task-0004", "probe-twice", ""));
  writeFileSync(predictionsFile, `${lines.join("\n")}\n`);
  // The reference: the naive solutions graded by `wirebench grade`, as a connector folder.
  const graded = await Promise.all(TASKS.map((task) => runCliAsync(["grade", "--task", task, "--repo", probeSource(findTask(task)!.task, "naive"), "--json", "--farm", farm.url], ENV, 240_000)));
  naiveByGrade = Object.fromEntries(
    graded.map((r, i) => {
      if (r.code !== 0) throw new Error(r.stderr);
      return [TASKS[i], JSON.parse(r.stdout).score as number];
    }),
  );
  first = await runCliAsync(["grade-all", "--predictions", predictionsFile, "--out", out, "--jobs", "2", "--farm", farm.url], ENV, 400_000);
}, 700_000);
afterAll(async () => {
  await farm?.stop();
});

describe("wirebench grade-all --predictions", () => {
  it("grades gold at 100, naive at the score grade gives it, and a malformed patch at 0 with the reason", () => {
    const s = summaries();
    expect(Object.keys(s)).toHaveLength(9);
    for (const task of TASKS) {
      const seed = findTask(task)!.task.seed;
      const gold = s[`${task}--external--probe-gold--s${seed}`];
      expect(gold, task).toMatchObject({ task, lane: "external", harness: "external", model: "probe-gold", score: 100, solved: true, failure_class: "candidate_result", error: null });
      expect(s[`${task}--external--probe-naive--s${seed}`], task).toMatchObject({ score: naiveByGrade[task], solved: false, failure_class: "candidate_result" });
      expect(naiveByGrade[task]).toBeLessThanOrEqual(75);
      const bad = s[`${task}--external--probe-malformed--s${seed}`];
      expect(bad, task).toMatchObject({ score: 0, solved: false, reward: 0, failure_class: "candidate_patch_failure", run: null });
      expect(bad.error).toMatch(/^the patch does not apply to the starter: error: corrupt patch at line \d+/);
      // One bundle per prediction: the graded ones with their verdict and sealed evidence.
      const dir = join(out, gold.attempt);
      for (const f of ["summary.json", "verdict.json", "evidence.json", "patch.diff", "vendor-requests.json", "problem.md"]) expect(existsSync(join(dir, f)), `${gold.attempt}/${f}`).toBe(true);
      expect(json(join(dir, "verdict.json"))).toMatchObject({ task, score: 100, runId: gold.run });
      expect(json(join(dir, "evidence.json"))).toMatchObject({ runId: gold.run, task });
      expect(readFileSync(join(dir, "patch.diff"), "utf8")).toBe(patchOf(task, "gold"));
      expect(json(join(out, bad.attempt, "verdict.json"))).toBeNull();
    }
  });

  it("reports every malformed or duplicated line by its number, grades the rest, and exits 1", () => {
    expect(first.code).toBe(1);
    const err = first.stderr;
    expect(err).toMatch(/^wirebench: line 2: not JSON/m);
    expect(err).toMatch(/^wirebench: line 3: patch: Invalid input: expected string, received undefined/m);
    expect(err).toMatch(/^wirebench: line 4: unknown task "task-9999"/m);
    expect(err).toMatch(/^wirebench: line 5: model: a model label is/m);
    expect(err).toMatch(/^wirebench: line 15: task-0004 for model probe-twice is given 2 times \(line 15, line 16\)/m);
    expect(err).toMatch(/^wirebench: line 16: task-0004 for model probe-twice/m);
    expect(existsSync(join(out, `task-0004--external--probe-twice--s${findTask("task-0004")!.task.seed}`))).toBe(false);
  });

  it("resumes: complete bundles are skipped, a half-written one and one of another patch are graded again", async () => {
    const seed = findTask("task-0001")!.task.seed;
    const naive = join(out, `task-0001--external--probe-naive--s${seed}`);
    const gold = join(out, `task-0001--external--probe-gold--s${seed}`);
    const goldMtime = statSync(join(gold, "summary.json")).mtimeMs;
    rmSync(join(naive, "summary.json"));
    mkdirSync(join(out, ".partial-task-0001--external--probe-gold--s7-abc"));
    writeFileSync(join(out, ".partial-task-0001--external--probe-gold--s7-abc", "summary.json"), "{}");
    const only = join(root, "resume.jsonl");
    writeFileSync(
      only,
      [
        lineOf("task-0001", "probe-gold", patchOf("task-0001", "gold")),
        lineOf("task-0001", "probe-naive", patchOf("task-0001", "naive")),
        lineOf("task-0004", "probe-gold", patchOf("task-0004", "naive")),
      ].join("\n"),
    );
    const r = await runCliAsync(["grade-all", "--predictions", only, "--out", out, "--farm", farm.url], ENV, 300_000);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows.map((x) => [x.attempt, x.skipped === true])).toEqual([
      [`task-0001--external--probe-gold--s${seed}`, true],
      [`task-0001--external--probe-naive--s${seed}`, false],
      [`task-0004--external--probe-gold--s${findTask("task-0004")!.task.seed}`, false],
    ]);
    expect(statSync(join(gold, "summary.json")).mtimeMs).toBe(goldMtime);
    expect(existsSync(join(naive, "summary.json"))).toBe(true);
    expect(existsSync(join(out, ".partial-task-0001--external--probe-gold--s7-abc"))).toBe(false);
    // The task-0004 "gold" row now grades the naive patch it was given.
    expect(rows[2]).toMatchObject({ score: naiveByGrade["task-0004"], solved: false });
    // Put the gold patch back for the release below.
    writeFileSync(only, lineOf("task-0004", "probe-gold", patchOf("task-0004", "gold")));
    const back = await runCliAsync(["grade-all", "--predictions", only, "--out", out, "--farm", farm.url], ENV, 300_000);
    expect(JSON.parse(back.stdout)).toMatchObject({ score: 100, solved: true });
  }, 400_000);

  it("publishes the bundles as a release marked harness: external, which regrades clean", async () => {
    const site = join(root, "site");
    const pub = await runCliAsync(["publish", "--runs", out, "--out", site, "--release", "ext", "--generated-at", "2026-12-01T00:00:00Z"], ENV);
    expect(pub.code, pub.stderr).toBe(0);
    const data = (...p: string[]) => join(site, "data", "v1", "wirebench", ...p);
    expect(json(data("manifest.json"))).toMatchObject({ lanes: ["external"], tasks: [...TASKS].sort(), counts: { attempts: 9, graded: 6, external: 9, self_reported: 0 } });
    const rows = json(data("leaderboard.json")).rows as { model: string; lane: string; mean_score: number; flagged: number }[];
    const row = (model: string) => rows.find((x) => x.model === model)!;
    expect(row("probe-gold")).toMatchObject({ lane: "external", mean_score: 100, flagged: 0 });
    expect(row("probe-malformed")).toMatchObject({ mean_score: 0, flagged: 3 });
    expect(row("probe-naive").mean_score).toBeCloseTo(TASKS.reduce((n, t) => n + naiveByGrade[t], 0) / 3, 1);
    const seed = findTask("task-0001")!.task.seed;
    const summary = json(data("attempts", "probe-malformed", "task-0001", `task-0001--external--probe-malformed--s${seed}`, "summary.json"));
    expect(summary).toMatchObject({ harness: "external", score: 0, flag: "not graded (candidate_patch_failure)" });
    expect(summary.error).toMatch(/corrupt patch/);
    const regrade = await runCliAsync(["regrade", site, "--json"], ENV);
    expect(regrade.code, regrade.stdout).toBe(0);
    expect(JSON.parse(regrade.stdout)).toMatchObject({ attempts: 9, regraded: 6, differences: [] });
  });

  it("exits 2 with one line on bad input", async () => {
    for (const [args, message] of [
      [["grade-all"], /give one of --predictions FILE\|DIR or --from-farm URL/],
      [["grade-all", "--predictions", join(root, "missing.jsonl")], /no such predictions file or folder/],
      [["grade-all", "--predictions", predictionsFile, "--jobs", "0"], /--jobs must be a positive integer/],
      [["grade-all", "--predictions", predictionsFile, "--model", "m"], /--model names the model of a folder/],
    ] as const) {
      const r = await runCliAsync([...args, "--farm", farm.url], ENV);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr.trim().split("\n"), args.join(" ")).toEqual([expect.stringMatching(message)]);
    }
  });
});
