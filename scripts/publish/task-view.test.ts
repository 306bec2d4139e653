import { describe, expect, it } from "vitest";
import { TASKS } from "../../declarations/tasks/index.ts";
import type { TaskMatrix } from "../harness/mutants/matrix.ts";
import { taskView } from "./aggregate.ts";

describe("a task page's mutants", () => {
  const gold = TASKS["task-0001"].gold!;
  const [first, second] = gold.checks.filter((c) => c.mandatory);
  const matrix: TaskMatrix = {
    task: "task-0001",
    checks: [],
    bars: [],
    collateralOnly: ["s/x"],
    ok: true,
    mutants: [
      { id: "a", mistake: "page two is never read", shared: false, status: "killed", score: 0, killedBy: [`${first.scenario}/${first.name}`], loweredBy: [], note: null, seconds: 1 },
      { id: "b", mistake: "the credential rides in the query", shared: true, status: "survived", score: 100, killedBy: [], loweredBy: [], note: null, seconds: 1 },
    ],
  };

  it("lists each mutant and, per check, the mutants it killed", () => {
    const v = taskView("task-0001", [], "ticket", matrix);
    expect(v.mutants?.map((m) => [m.id, m.status, m.killed_by])).toEqual([
      ["a", "killed", [`${first.scenario}/${first.name}`]],
      ["b", "survived", []],
    ]);
    expect(v.checks.find((c) => c.name === first.name)?.mutants_killed).toEqual(["a"]);
    expect(v.checks.find((c) => c.name === second.name)?.mutants_killed).toEqual([]);
    expect(v.mutant_collateral_only).toEqual(["s/x"]);
  });

  it("has no mutants section when the matrix has not been run", () => {
    const v = taskView("task-0001", [], "ticket");
    expect(v.mutants).toBeNull();
    expect(v.mutant_collateral_only).toBeNull();
    expect(v.checks.every((c) => c.mutants_killed === null)).toBe(true);
  });
});
