import { describe, expect, it } from "vitest";
import { TASKS } from "../../declarations/tasks/index.ts";
import { runCli } from "./run-cli.ts";

const authored = Object.values(TASKS)
  .filter((e) => e.gold)
  .map((e) => e.task.id);

describe("wirebench validate", () => {
  it("proves every authored task: gold 100 and solved, empty and stub 0, naive <= 75 unsolved, alt (where present) solved, gold 5x identical", () => {
    expect(authored.length).toBeGreaterThan(0);
    // Four gradings at a time. Eight were faster on a quiet 2-core machine (ten tasks in 114 s against 141 s
    // with four), but beside the second test file on a slower 2-core machine one gold run of task-0007 in five
    // lost its webhook checks under the load, in three clean-clone CI runs out of three.
    const r = runCli(["validate", ...authored, "--jobs", "4", "--json"], { WIREBENCH_ADMIN_TOKEN: "" }, 1_800_000);
    const report = JSON.parse(r.stdout);
    const failures = report.tasks.flatMap((t: any) => t.bars.filter((b: any) => !b.ok).map((b: any) => `${t.task} ${b.bar}: ${b.detail}`));
    expect(failures).toEqual([]);
    expect(r.code).toBe(0);
    console.log(`validated ${report.tasks.length} tasks in ${report.seconds}s: ${report.tasks.map((t: any) => `${t.task} ${t.seconds}s`).join(", ")}`);
  }, 1_800_000);
});
