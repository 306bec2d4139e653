import { describe, expect, it } from "vitest";
import { dedupe, maxScore, scoreChecks } from "../../../workers/grading/score.ts";
import type { Check, GoldManifest } from "../../../evidence/verdict.ts";

function check(name: string, ok: boolean, pass: Check["pass"] = 1, fail: Check["fail"] = 0, mandatory = false): Check {
  return { name, ok, detail: "", pass, fail, mandatory, level: "l1", value: ok ? pass : fail, basis: { ticket: "The mirror matches." } };
}

const gold: GoldManifest = {
  scorer: "task-score-v4-mandatory-gated",
  task: "task-x",
  checks: [
    { name: "exit_ok", level: "l1", ok: true, pass: 0, fail: -1, mandatory: false, basis: { ticket: "The mirror matches." } },
    { name: "core", level: "l1", ok: true, pass: 2, fail: 0, mandatory: true, basis: { ticket: "The mirror matches." } },
    { name: "extra", level: "l1", ok: true, pass: 1, fail: 0, mandatory: false, basis: { ticket: "The mirror matches." } },
    { name: "gate", level: "l2", ok: true, pass: 0, fail: -1, mandatory: true, basis: { ticket: "The mirror matches." } },
  ],
  max: 3,
};

describe("task-score-v4-mandatory-gated", () => {
  it("sums gold's positive values for max", () => {
    expect(maxScore(gold.checks)).toBe(3);
  });

  it("gives 100 to a run that matches gold", () => {
    expect(scoreChecks([check("exit_ok", true, 0, -1), check("core", true, 2, 0, true), check("extra", true), check("gate", true, 0, -1, true)], gold)).toEqual({
      raw: 3,
      max: 3,
      score: 100,
      solved: true,
    });
  });

  it("zeroes the score when a mandatory check fails or is missing", () => {
    expect(scoreChecks([check("exit_ok", true, 0, -1), check("core", true, 2, 0, true), check("extra", true), check("gate", false, 0, -1, true)], gold)).toMatchObject({ score: 0, solved: false });
    expect(scoreChecks([check("exit_ok", true, 0, -1), check("core", true, 2, 0, true), check("extra", true)], gold)).toMatchObject({ score: 0, solved: false, raw: 2 });
  });

  it("counts a check gold has but the run lacks at its fail value, and clamps negatives", () => {
    expect(scoreChecks([], gold)).toMatchObject({ raw: -2, score: 0, solved: false });
  });

  it("scores partial credit when every mandatory check passes", () => {
    expect(scoreChecks([check("exit_ok", true, 0, -1), check("core", true, 2, 0, true), check("extra", false), check("gate", true, 0, -1, true)], gold)).toMatchObject({
      raw: 2,
      score: 66.67,
      solved: true,
    });
  });

  it("lets a failing mandatory check that only the run recorded block the solve", () => {
    const run = [check("exit_ok", true, 0, -1), check("core", true, 2, 0, true), check("extra", true), check("gate", true, 0, -1, true), check("failure_path", false, 1, 0, true)];
    expect(scoreChecks(run, gold)).toMatchObject({ solved: false, score: 0 });
  });

  it("dedupes by name, the worst instance winning, in first-seen order", () => {
    const d = dedupe([check("a", true), check("b", true), check("a", false), check("b", true)]);
    expect(d.map((c) => [c.name, c.ok])).toEqual([
      ["a", false],
      ["b", true],
    ]);
  });
});
