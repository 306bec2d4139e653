import { describe, expect, it } from "vitest";
import type { Check, Verdict } from "../../evidence/verdict.ts";
import { checkBars } from "./probe-bars.ts";

function check(name: string, ok: boolean, mandatory: boolean): Check {
  return { name, ok, detail: "", pass: 2, fail: 0, mandatory, level: "l1", value: ok ? 2 : 0, basis: { ticket: "a sentence of the ticket" } };
}

function verdict(score: number, checks: Check[]): Verdict {
  const solved = !checks.some((c) => c.mandatory && !c.ok);
  return {
    schema: "wirebench-verdict/1",
    scorer: "task-score-v4-mandatory-gated",
    task: "task-0000",
    runId: "r",
    seed: 1,
    checks: { l1: checks, l2: [], l3: [] },
    raw: 0,
    max: 4,
    score,
    solved,
    error: null,
  };
}

const gold = verdict(100, [check("view_matches", true, true), check("polite", true, false)]);
const zero = verdict(0, [check("view_matches", false, true)]);
const naive = verdict(50, [check("view_matches", false, true), check("polite", true, false)]);

describe("probe bars", () => {
  it("has no alt bar for a task without solutions/alt", () => {
    const bars = checkBars({ empty: zero, stub: zero, naive, gold: [gold, gold] });
    expect(bars.map((b) => b.bar)).toEqual(["gold", "empty", "stub", "naive", "flake"]);
    expect(bars.every((b) => b.ok)).toBe(true);
  });

  it("passes an alt that is solved, even below 100 for a missed soft check", () => {
    const alt = verdict(50, [check("view_matches", true, true), check("polite", false, false)]);
    const bar = checkBars({ empty: zero, stub: zero, naive, gold: [gold], alt }).find((b) => b.bar === "alt");
    expect(bar).toEqual({ bar: "alt", ok: true, detail: "score 50, solved" });
  });

  it("fails an alt that misses a mandatory check, naming it", () => {
    const alt = verdict(0, [check("view_matches", false, true), check("polite", true, false)]);
    const bar = checkBars({ empty: zero, stub: zero, naive, gold: [gold], alt }).find((b) => b.bar === "alt");
    expect(bar).toEqual({ bar: "alt", ok: false, detail: "score 0, not solved (view_matches)" });
  });
});
