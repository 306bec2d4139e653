import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../scripts/farm/paths.ts";
import { mountHeldOut } from "../../scripts/harness/held-out.ts";
import { heldOutFolder } from "./held-out-folder.ts";
import { runCli, runCliAsync } from "./run-cli.ts";

describe("held-out tasks (WIREBENCH_TASKS, --tasks)", () => {
  const folder = heldOutFolder("task-0001", "task-9001");

  it("are validated like public tasks: gold 100, empty and stub 0, naive unsolved", async () => {
    const r = await runCliAsync(["--tasks", folder, "validate", "task-9001", "--runs", "2", "--farms", "1", "--json"], {}, 600_000);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.tasks.map((t: { task: string }) => t.task)).toEqual(["task-9001"]);
    expect(report.tasks[0].scores).toMatchObject({ gold: 100, empty: 0, stub: 0 });
    expect(report.ok).toBe(true);
    // A mount named by the folder's content holds the task; the public tree is untouched.
    const mounts = join(projectRoot(), ".wirebench", "held-out", "mounts");
    expect(readdirSync(mounts).some((m) => existsSync(join(mounts, m, "task-9001", "task.ts")))).toBe(true);
    expect(existsSync(join(projectRoot(), "declarations", "tasks", "task-9001"))).toBe(false);
  }, 620_000);

  it("are mounted by content: the same folder twice is one mount; an edit makes another and leaves the first as it was", () => {
    const problem = join(folder, "task-9001", "PROBLEM.md");
    const original = readFileSync(problem, "utf8");
    const first = mountHeldOut(folder);
    expect(mountHeldOut(folder)).toEqual(first);
    writeFileSync(problem, `${original}\nEdited.\n`);
    try {
      const edited = mountHeldOut(folder);
      expect(edited.mount).not.toBe(first.mount);
      expect(readFileSync(join(edited.mount, "task-9001", "PROBLEM.md"), "utf8")).toContain("Edited.");
      expect(readFileSync(join(first.mount, "task-9001", "PROBLEM.md"), "utf8")).toBe(original);
    } finally {
      writeFileSync(problem, original);
      mountHeldOut(folder);
    }
  });

  it("are known only while mounted: without the folder the id is unknown", () => {
    const r = runCli(["validate", "task-9001"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown task "task-9001"/);
  });

  it("refuse a folder that is not a folder of task folders, or that reuses a public id, with one line and exit 2", () => {
    const bad = mkdtempSync(join(tmpdir(), "wb-held-out-bad-"));
    writeFileSync(join(bad, "notes.txt"), "hello");
    const cases: [string, RegExp][] = [
      [join(bad, "missing"), /is not a folder/],
      [bad, /notes\.txt is not a task folder/],
      [heldOutFolder("task-0001", "task-0002"), /task-0002 is a public task's id/],
    ];
    const incomplete = mkdtempSync(join(tmpdir(), "wb-held-out-bad-"));
    mkdirSync(join(incomplete, "task-9009"));
    cases.push([incomplete, /task-9009 has no task\.ts/]);
    for (const [dir, message] of cases) {
      const r = runCli(["validate"], { WIREBENCH_TASKS: dir });
      expect(r.code, dir).toBe(2);
      expect(r.stderr.trim().split("\n"), dir).toEqual([expect.stringMatching(message)]);
    }
    expect(readFileSync(join(folder, "task-9001", "task.ts"), "utf8")).toContain('from "#wirebench/declarations/schema/task.ts"');
  });
});
