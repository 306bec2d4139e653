import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MECHANICS } from "../../declarations/tasks/mechanics.ts";
import { TASKS } from "../../declarations/tasks/index.ts";
import { findVendor } from "../../declarations/vendors/index.ts";
import { entryScript, taskDir } from "../../scripts/harness/workspace.ts";
import { TICKETS_MODULE, ticketsModule } from "../../scripts/fixtures/tickets.ts";

const entries = Object.values(TASKS);

describe("task registry", () => {
  it("gives every task a registered primary mechanic, none shared", () => {
    const used = entries.map((e) => e.task.primaryMechanic);
    for (const m of used) expect(Object.keys(MECHANICS), m).toContain(m);
    expect(new Set(used).size).toBe(used.length);
  });

  it.each(entries.map((e) => [e.task.id, e] as const))("%s has its files, known vendors and a gold manifest", (id, e) => {
    const dir = taskDir(id);
    for (const f of ["PROBLEM.md", "repo/package.json", `repo/${entryScript(e.task)}`, "solutions/gold", "solutions/naive", "gold-manifest.json"]) expect(existsSync(join(dir, f)), f).toBe(true);
    for (const r of Object.values(e.task.roles)) expect(findVendor(r.vendor), r.vendor).toBeDefined();
    expect(e.gold?.task).toBe(id);
    expect(e.gold!.checks.some((c) => c.mandatory)).toBe(true);
  });

  it("keeps answers out of the starter the agent gets", () => {
    for (const e of entries) {
      const repo = join(taskDir(e.task.id), "repo");
      for (const leak of ["solutions", "fixtures", "gold-manifest.json", "task.ts"]) expect(existsSync(join(repo, leak)), `${e.task.id} repo/${leak}`).toBe(false);
    }
  });

  it("bundles every task's current ticket for the grader (regenerate with npm run fixtures)", () => {
    expect(readFileSync(TICKETS_MODULE, "utf8")).toBe(ticketsModule());
  });
});
