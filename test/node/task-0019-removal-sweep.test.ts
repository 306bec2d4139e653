import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taskDir } from "../../scripts/harness/workspace.ts";
import { runCliAsync, startServe } from "./run-cli.ts";

// task-0019's ticket wants "removals included" after a poll, and a poll that reads what changed,
// not the whole tenant. TalentLoop drops removed jobs from lists with no flag and no feed, so one
// sweep of the job ids per poll beside the incremental read is allowed (solutions/alt does it);
// re-reading the whole tenant every poll is not.
const TASK = "task-0019";
const ENV = { WIREBENCH_ADMIN_TOKEN: "task-0019-sweep-test" };
let farm: Awaited<ReturnType<typeof startServe>>;
const dirs: string[] = [];

beforeAll(async () => {
  farm = await startServe([], ENV);
});
afterAll(() => {
  farm?.proc.kill("SIGTERM");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The starter with a solution overlaid, its `poll` optionally rewritten. */
function connector(solution: "gold" | "alt", rewrite?: (main: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), "wb-t19-"));
  dirs.push(dir);
  cpSync(join(taskDir(TASK), "repo"), dir, { recursive: true });
  cpSync(join(taskDir(TASK), "solutions", solution), dir, { recursive: true });
  if (rewrite) {
    const file = join(dir, "src", "main.ts");
    const before = readFileSync(file, "utf8");
    const after = rewrite(before);
    if (after === before) throw new Error("the rewrite changed nothing");
    writeFileSync(file, after);
  }
  return dir;
}

async function grade(repo: string) {
  const r = await runCliAsync(["grade", "--task", TASK, "--repo", repo, "--trusted", "--json", "--farm", farm.url], ENV, 240_000);
  expect(r.code, r.stderr).toBe(0);
  const v = JSON.parse(r.stdout);
  const checks = [...v.checks.l1, ...v.checks.l2, ...v.checks.l3] as { name: string; ok: boolean; mandatory: boolean; detail: string }[];
  return { v, check: (name: string) => checks.find((c) => c.name === name) };
}

/** Gold's poll, made to read every candidate, application and job again instead of what changed. */
const wholeTenant = (main: string) =>
  main.replace(
    'const jobs = (await api.list("/v1/jobs", since ? { [SINCE_PARAM]: since } : {})) ?? [];',
    'void since;\n  for (const [entity, path] of [["candidate", "/v1/candidates"], ["application", "/v1/applications"]] as [Entity, string][]) for (const r of (await api.list(path)) ?? []) view.upsert(entity, r, "poll");\n  const jobs = (await api.list("/v1/jobs")) ?? [];',
  );

describe("task-0019: finding removed jobs", () => {
  it("solves the task with one id sweep of the jobs per poll beside the incremental read", async () => {
    const { v, check } = await grade(connector("alt"));
    expect(v.solved).toBe(true);
    expect(check("jobs_polled_incrementally")).toMatchObject({ ok: true, detail: expect.stringContaining("2 with one id sweep beside it") });
    expect(check("no_full_resync_after_incremental")).toMatchObject({ ok: true });
    expect(check("polls_leave_pushed_lists_alone")).toMatchObject({ ok: true });
  }, 300_000);

  it("leaves a connector that re-reads the whole tenant every poll unsolved", async () => {
    const { v, check } = await grade(connector("gold", wholeTenant));
    expect(v.solved).toBe(false);
    expect(check("jobs_polled_incrementally")).toMatchObject({ ok: false, mandatory: true, detail: expect.stringContaining("none with it") });
    expect(check("polls_leave_pushed_lists_alone")).toMatchObject({ ok: false });
  }, 300_000);
});
