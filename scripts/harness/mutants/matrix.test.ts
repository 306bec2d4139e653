import { describe, expect, it } from "vitest";
import type { Check, GoldManifest, Verdict } from "../../../evidence/verdict.ts";
import { buildMatrix, judgeMutant } from "./matrix.ts";

const check = (name: string, mandatory: boolean, ok: boolean): Check => ({
  name,
  ok,
  detail: "",
  pass: mandatory ? 2 : 1,
  fail: 0,
  mandatory,
  level: "l1",
  value: ok ? (mandatory ? 2 : 1) : 0,
  basis: { ticket: "a sentence" },
  scenario: "s",
});
const manifest: GoldManifest = {
  scorer: "task-score-v4-mandatory-gated",
  task: "task-x",
  max: 5,
  checks: [
    { scenario: "s", name: "rows_true", level: "l1", ok: true, pass: 2, fail: 0, mandatory: true, basis: { ticket: "a" } },
    { scenario: "s", name: "no_query_secret", level: "l2", ok: true, pass: 2, fail: 0, mandatory: true, basis: { ticket: "b" } },
    { scenario: "s", name: "paced", level: "l2", ok: true, pass: 1, fail: 0, mandatory: false, basis: { vendor: "c" } },
  ],
};
function verdict(failed: string[], score: number, solved: boolean): Verdict {
  const checks = manifest.checks.map((c) => check(c.name, c.mandatory, !failed.includes(c.name)));
  return {
    schema: "wirebench-verdict/1",
    scorer: "task-score-v4-mandatory-gated",
    task: "task-x",
    runId: "r",
    seed: 1,
    checks: { l1: checks, l2: [], l3: [] },
    raw: 0,
    max: 5,
    score,
    solved,
    error: null,
  };
}
const m = (id: string) => ({ id, mistake: "a mistake of some kind", shared: false });

describe("the mutant-kill matrix", () => {
  it("names the mandatory checks that killed a mutant and the soft ones that lowered it", () => {
    expect(judgeMutant(m("a"), verdict(["rows_true", "paced"], 0, false), 1.23)).toMatchObject({ status: "killed", killedBy: ["s/rows_true"], loweredBy: ["s/paced"], seconds: 1.2 });
    expect(judgeMutant(m("b"), verdict(["paced"], 80, true), 1)).toMatchObject({ status: "lowered", killedBy: [], loweredBy: ["s/paced"] });
    expect(judgeMutant(m("c"), verdict([], 100, true), 1).status).toBe("survived");
    expect(judgeMutant(m("d"), { ...verdict([], 0, false), error: { class: "benchmark_infrastructure_failure", message: "x" } }, 1).status).toBe("error");
  });

  it("fails its bars on a mandatory check no mutant fails, on a survivor, and on a mutant that did not build", () => {
    const killed = judgeMutant(m("a"), verdict(["rows_true"], 0, false), 1);
    const survivor = judgeMutant(m("c"), verdict([], 100, true), 1);
    const r = buildMatrix("task-x", manifest, [killed, survivor, { ...survivor, id: "e", status: "error", note: "does not fit" }]);
    expect(r.ok).toBe(false);
    expect(r.bars.map((b) => [b.bar, b.ok])).toEqual([
      ["fits", false],
      ["dead-checks", false],
      ["survivors", false],
    ]);
    expect(r.bars[1].detail).toContain("s/no_query_secret");
    const all = buildMatrix("task-x", manifest, [killed, judgeMutant(m("q"), verdict(["no_query_secret"], 0, false), 1), judgeMutant(m("b"), verdict(["paced"], 80, true), 1)]);
    expect(all.ok).toBe(true);
    expect(all.checks.map((c) => c.key)).toEqual(["s/rows_true", "s/no_query_secret", "s/paced"]);
    expect(all.collateralOnly).toEqual([]);
  });

  it("reports a mandatory check killed only by a mutant aimed at another check as collateral", () => {
    const leak = judgeMutant({ ...m("leak"), aimsAt: ["no_query_secret"] }, verdict(["rows_true", "no_query_secret"], 0, false), 1);
    const r = buildMatrix("task-x", manifest, [leak, judgeMutant(m("b"), verdict(["paced"], 80, true), 1)]);
    // Both mandatory checks are killed, so the bar holds; rows_true only fell with the leak's broken requests.
    expect(r.bars.find((b) => b.bar === "dead-checks")?.ok).toBe(true);
    expect(r.collateralOnly).toEqual(["s/rows_true"]);
    const aimed = buildMatrix("task-x", manifest, [leak, judgeMutant(m("a"), verdict(["rows_true"], 0, false), 1)]);
    expect(aimed.collateralOnly).toEqual([]);
  });
});
