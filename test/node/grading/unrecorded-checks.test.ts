import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Check, ConnectorRun, GoldManifest, ScenarioEvidence } from "../../../evidence/verdict.ts";
import { TASKS } from "../../../declarations/tasks/index.ts";
import { findVendor } from "../../../declarations/vendors/index.ts";
import { formatVerdict } from "../../../scripts/cli/commands/grade.ts";
import { readOutputs } from "../../../scripts/harness/connector-process.ts";
import { gradeRun, type SealedRun } from "../../../workers/grading/grade-run.ts";
import { unrecordedChecks } from "../../../workers/grading/unrecorded.ts";
import { dedupe, scoreChecks } from "../../../workers/grading/score.ts";

const { task, gold } = TASKS["task-0001"];
const vendors = { ats: findVendor("staffline")! };
const row = (id: string) => ({ source_id: id, data: { first_name: "Ada" }, updated_at: 1546800000000, is_deleted: false });

/** A run as the harness records it: the output folder's files read by the task's declared contracts. */
function run(label: string, exitCode: number, files: Record<string, string>, stderrTail = ""): ConnectorRun {
  const dir = join(mkdtempSync(join(tmpdir(), "wb-unrecorded-")), "output");
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { label, args: [label], exitCode, timedOut: false, durationMs: 10, stderrTail, outputs: readOutputs(task.outputs, dir) };
}

function scenario(name: string, runs: ConnectorRun[]): ScenarioEvidence {
  return { name, epochs: { ats: [1] }, runs, snapshots: {}, notes: {}, requests: {}, tokens: {}, webhooks: {}, secrets: {} };
}

const arrays = { "candidates.json": JSON.stringify([row("cand_0001")]), "jobs.json": "[]", "applications.json": "[]" };
/** initial_sync's backfill wrote candidates.json as JSON Lines; incremental_catch_up's incremental run exited 1. */
const sealed: SealedRun = {
  runId: "run-unrecorded",
  task: task.id,
  seed: 7,
  error: null,
  scenarios: [
    scenario("initial_sync", [run("backfill", 0, { ...arrays, "candidates.json": [row("cand_0001"), row("cand_0002")].map((r) => JSON.stringify(r)).join("\n") })]),
    scenario("incremental_catch_up", [run("backfill", 0, arrays), run("incremental", 1, arrays, "Error: the watermark file is corrupt\n")]),
  ],
};
const all = (checks: Record<string, Check[]>) => [...checks.l1, ...checks.l2, ...checks.l3];

describe("a verdict lists every check of gold's manifest", () => {
  const verdict = gradeRun(task, vendors, sealed, gold);
  const checks = all(verdict.checks);

  it("names the scenario that recorded each check in gold's manifest", () => {
    expect(gold!.checks.find((c) => c.name === "incremental_candidates_match")?.scenario).toBe("incremental_catch_up");
    expect(gold!.checks.find((c) => c.name === "backfill_candidates_match")?.scenario).toBe("initial_sync");
  });

  it("lists gold's checks the run never recorded as failed at gold's values, saying which scenario's run stopped them", () => {
    expect(new Set(checks.map((c) => c.name))).toEqual(new Set(gold!.checks.map((c) => c.name)));
    const missing = gold!.checks.filter((g) => g.scenario === "incremental_catch_up" && g.name !== "incremental_exit_ok");
    expect(missing.length).toBeGreaterThan(2);
    for (const g of missing) {
      expect(checks.find((c) => c.name === g.name)).toEqual({
        name: g.name,
        ok: false,
        detail: "not recorded: scenario incremental_catch_up's run `incremental` exited 1 before it could be judged",
        pass: g.pass,
        fail: g.fail,
        mandatory: g.mandatory,
        level: g.level,
        value: g.fail,
        basis: g.basis,
        scenario: "incremental_catch_up",
        recorded: false,
      });
    }
    expect(checks.find((c) => c.name === "incremental_exit_ok")).toMatchObject({ ok: false, scenario: "incremental_catch_up", detail: "exit code 1: Error: the watermark file is corrupt" });
  });

  it("does not change the score: the listed checks count as the scorer already counted them", () => {
    const recorded = checks.filter((c) => c.recorded !== false);
    expect(recorded.length).toBeLessThan(checks.length);
    const s = scoreChecks(recorded, gold!);
    expect({ raw: verdict.raw, max: verdict.max, score: verdict.score, solved: verdict.solved }).toEqual(s);
    expect(scoreChecks(dedupe(checks), gold!)).toEqual(s);
    expect(verdict.solved).toBe(false);
  });

  it("fails exactly one check for JSON Lines where JSON is declared, and it says so", () => {
    const saying = checks.filter((c) => c.detail.includes("JSON Lines"));
    expect(saying.map((c) => [c.name, c.ok])).toEqual([["backfill_exit_ok", false]]);
    expect(saying[0].detail).toMatch(/^candidates\.json is not JSON \(one array of rows\): Unexpected non-whitespace character after JSON .*this is JSON Lines, not one JSON value$/);
    expect(checks.filter((c) => /was not written/.test(c.detail))).toEqual([]);
    expect(checks.find((c) => c.name === "backfill_candidates_match")?.detail).toBe("not recorded: scenario initial_sync's judge did not reach it after its check backfill_exit_ok failed");
  });

  it("shows them in the CLI table", () => {
    const table = formatVerdict(verdict);
    expect(table).toMatch(/^ {2}FAIL l1 \* incremental_candidates_match +0 {2}not recorded: scenario incremental_catch_up's run `incremental` exited 1 before it could be judged$/m);
    expect(table).toContain(`${checks.filter((c) => c.recorded === false).length} of gold's checks were not recorded by this run`);
  });
});

describe("a vendor-triggered conduct check the run never met", () => {
  const basis = { vendor: "a vendor behaviour" };
  const manifest: GoldManifest = {
    scorer: "task-score-v4-mandatory-gated",
    task: "task-x",
    max: 4,
    checks: [
      { scenario: "s", name: "data_true", level: "l1", ok: true, pass: 2, fail: 0, mandatory: true, basis },
      { scenario: "s", name: "retry_after_honored", level: "l2", ok: true, pass: 1, fail: 0, mandatory: false, basis },
      { scenario: "s", name: "token_reused_not_reminted", level: "l2", ok: true, pass: 1, fail: 0, mandatory: false, basis },
    ],
  };
  const finished: ConnectorRun = { label: "run", args: [], exitCode: 0, timedOut: false, durationMs: 1, stderrTail: "", outputs: {} };
  const dataTrue: Check = { name: "data_true", ok: true, detail: "", pass: 2, fail: 0, mandatory: true, level: "l1", value: 2, basis, scenario: "s" };

  it("stands, passed at gold's value, when every run of its scenario finished; other unrecorded checks still fail", () => {
    const out = unrecordedChecks(manifest, new Set(["data_true"]), [{ name: "s", runs: [finished], checks: [dataTrue], threw: null }]);
    expect(out.map((c) => [c.name, c.ok, c.value])).toEqual([
      ["retry_after_honored", true, 1],
      ["token_reused_not_reminted", false, 0],
    ]);
    expect(scoreChecks([dataTrue, ...out], manifest)).toEqual({ raw: 3, max: 4, score: 75, solved: true });
  });

  it("fails as before when the scenario's run exited non-zero", () => {
    const out = unrecordedChecks(manifest, new Set(["data_true"]), [{ name: "s", runs: [{ ...finished, exitCode: 1 }], checks: [dataTrue], threw: null }]);
    expect(out.find((c) => c.name === "retry_after_honored")).toMatchObject({ ok: false, value: 0 });
  });
});
