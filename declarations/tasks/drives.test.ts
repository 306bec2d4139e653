import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defineDrives, defineTask, type TaskInput } from "../schema/task.ts";
import { DRIVEN_TASKS, driveOf } from "./drives.ts";
import { TASKS } from "./index.ts";
import { mirrorOutputs } from "./shared/judging.ts";

const here = import.meta.dirname;

describe("the drives registry", () => {
  it("has every task of the registry, a drive for each of its scenarios", () => {
    expect([...DRIVEN_TASKS].sort()).toEqual(Object.keys(TASKS).sort());
    for (const { task } of Object.values(TASKS)) for (const s of task.scenarios) expect(typeof driveOf(task.id, s.name), `${task.id} ${s.name}`).toBe("function");
  });

  it("refuses a scenario or task it does not know", () => {
    expect(() => driveOf("task-0001", "no_such_scenario")).toThrow(/task-0001 has no drive for scenario no_such_scenario/);
    expect(() => driveOf("task-9999", "initial_sync")).toThrow(/task-9999 has no drive/);
  });

  it("keeps drives out of what the grader bundles: no task.ts declares or imports one", () => {
    for (const id of Object.keys(TASKS)) {
      const source = readFileSync(join(here, id, "task.ts"), "utf8");
      expect(source, id).not.toMatch(/\bdrive\s*:/);
      expect(source, id).not.toMatch(/from "\.\/drive\.ts"/);
    }
    expect(readFileSync(join(here, "index.ts"), "utf8")).not.toMatch(/drive/);
  });
});

describe("defineDrives and the scenario schema", () => {
  const input: TaskInput = {
    id: "task-9998",
    title: "t",
    kind: "build",
    roles: { ats: { vendor: "staffline" } },
    docsProfile: "stale",
    surfaces: ["polling"],
    primaryMechanic: "m",
    entry: { command: ["node", "src/main.ts"] },
    outputs: mirrorOutputs(["m.json"]),
    scenarios: [{ name: "a", judge: () => {} }],
  };
  const drive = async () => {};

  it("takes one drive per scenario", () => {
    expect(Object.keys(defineDrives(defineTask(input), { a: drive }))).toEqual(["a"]);
  });
  it("refuses a missing drive or one for no scenario", () => {
    expect(() => defineDrives(defineTask(input), {})).toThrow("drives of task-9998: no drive for a");
    expect(() => defineDrives(defineTask(input), { a: drive, b: drive })).toThrow("drives of task-9998: no scenario b");
  });
  it("refuses a drive declared in the scenario itself", () => {
    expect(() => defineTask({ ...input, scenarios: [{ name: "a", judge: () => {}, drive } as never] })).toThrow(/at scenarios\.0: .*"drive"/);
  });
});
