import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ScenarioEvidence } from "../../../evidence/verdict.ts";
import type { Drives, Task } from "../../../declarations/schema/task.ts";
import { runCli } from "../../../test/node/run-cli.ts";
import { projectRoot } from "../../farm/paths.ts";

// A folder beside declarations/tasks, with its shared/ linked in, so the new task.ts's relative
// imports resolve as they will in place.
const root = mkdtempSync(join(projectRoot(), "declarations", ".task-init-test-"));
symlinkSync(join(projectRoot(), "declarations", "tasks", "shared"), join(root, "shared"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ID = "task-9999";
const dir = join(root, ID);
const init = (...args: string[]) => runCli(["task", "init", ...args, "--root", root]);

describe("wirebench task init", () => {
  it("creates the folder: task.ts, PROBLEM.md, repo/ and solutions/gold and naive", () => {
    const r = init(ID, "--vendor", "talentloop");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`created ${ID}`);
    for (const f of ["task.ts", "drive.ts", "PROBLEM.md", "repo/package.json", "repo/src/main.ts", "solutions/gold/src/main.ts", "solutions/naive/src/main.ts"])
      expect(existsSync(join(dir, f)), f).toBe(true);
  });

  it("writes a task that loads, whose checks quote its ticket", async () => {
    const task = (await import(join(dir, "task.ts"))).default as Task;
    expect(task).toMatchObject({ id: ID, roles: { ats: { vendor: "talentloop" } }, entry: { subcommands: ["sync"] } });
    const problem = readFileSync(join(dir, "PROBLEM.md"), "utf8").replace(/\s+/g, " ");
    const run = { label: "sync", exitCode: 0, timedOut: false, stderrTail: "", outputs: { "candidates.json": { present: true, parsed: true, value: [] } } };
    const snapshot = { checkpoint: 0, epoch: 1, entities: { candidate: [{ id: "c1", deleted: false, record: { id: "c1", updated_at: "2025-01-01T00:00:00Z" } }] } };
    const e = { runs: [run], snapshots: { end: { ats: snapshot } } } as unknown as ScenarioEvidence;
    const c = new CheckRecorder();
    task.scenarios[0].judge(e, c, { seed: 1, vendors: {} });
    expect(c.checks.map((k) => [k.name, k.ok, k.mandatory])).toEqual([
      ["sync_exit_ok", true, false],
      ["mirror_matches", false, true],
    ]);
    for (const k of c.checks) expect(problem).toContain(k.basis.ticket);
    const drives = (await import(join(dir, "drive.ts"))).default as Drives;
    expect(Object.keys(drives)).toEqual(["initial_sync"]);
  });

  it("refuses an id whose folder exists with exit 2, and changes nothing", () => {
    writeFileSync(join(dir, "PROBLEM.md"), "# mine\n");
    const r = init(ID);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^wirebench: task-9999 exists already/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(readFileSync(join(dir, "PROBLEM.md"), "utf8")).toBe("# mine\n");
  });

  it("refuses an id that is not task-NNNN with exit 2", () => {
    const r = init("task-12");
    expect(r.code).toBe(2);
    expect(existsSync(join(root, "task-12"))).toBe(false);
  });
});
