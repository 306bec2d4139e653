import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalFarm } from "../../scripts/farm/local-farm.ts";
import { startFarm } from "./farm.ts";
import { runCli, runCliAsync } from "./run-cli.ts";

let farm: LocalFarm;
beforeAll(async () => {
  farm = await startFarm();
});
afterAll(() => farm?.stop());

describe("wirebench mutants", () => {
  it("grades a mutant of gold through the farm: a credential moved into the query string is zeroed by the gate that names it", async () => {
    const r = await runCliAsync(["mutants", "task-0023", "--only", "shared-credential-in-query", "--json", "--farm", farm.url], { WIREBENCH_ADMIN_TOKEN: farm.adminToken }, 300_000);
    const report = JSON.parse(r.stdout);
    const [task] = report.tasks;
    expect(task.mutants).toEqual([expect.objectContaining({ id: "shared-credential-in-query", status: "killed", score: 0, killedBy: ["quiet_placement_sweep/no_credentials_in_query_string"] })]);
    // One mutant cannot reach every mandatory check of the task: the dead-checks bar fails, so the command does.
    expect(task.bars.find((b: { bar: string }) => b.bar === "dead-checks").ok).toBe(false);
    expect(r.code).toBe(1);
  }, 320_000);

  it("refuses an unknown task, or an --only that names no mutant, with a usage exit", () => {
    const r = runCli(["mutants", "task-9999"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown task "task-9999"/);
    const only = runCli(["mutants", "task-0023", "--only", "shared-credential-in-query,page-2-nvr-read"]);
    expect(only.code).toBe(2);
    expect(only.stderr.trim().split("\n")).toEqual([expect.stringMatching(/--only names no mutant of these tasks: page-2-nvr-read$/)]);
  });
});
