/**
 * A participant drives a farm with its key alone: the real `serve` process
 * and the real CLI, WIREBENCH_KEY instead of the admin token.
 */
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taskDir } from "../../scripts/harness/workspace.ts";
import { runCli, startServe } from "./run-cli.ts";

const ADMIN = { WIREBENCH_ADMIN_TOKEN: "participant-cli-test" };
let farm: Awaited<ReturnType<typeof startServe>>;
let key: string;

beforeAll(async () => {
  farm = await startServe([], ADMIN);
  const res = await fetch(`${farm.url}/v1/participants`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN.WIREBENCH_ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "cli-lab", quota: { liveWorlds: 5 } }),
  });
  key = ((await res.json()) as { key: string }).key;
});
afterAll(() => {
  farm?.proc.kill("SIGTERM");
});

describe("a participant key on the CLI", () => {
  it("grades gold of a public task at 100 on the participant's own world, self-reported", () => {
    const repo = mkdtempSync(join(tmpdir(), "wb-participant-"));
    cpSync(join(taskDir("task-0004"), "repo"), repo, { recursive: true });
    cpSync(join(taskDir("task-0004"), "solutions", "gold"), repo, { recursive: true });
    const r = runCli(["grade", "--task", "task-0004", "--repo", repo, "--json", "--farm", farm.url], { WIREBENCH_KEY: key, WIREBENCH_ADMIN_TOKEN: "" });
    expect(r.code, r.stderr).toBe(0);
    const verdict = JSON.parse(r.stdout);
    expect(verdict.score).toBe(100);
    expect(verdict.selfReported).toBe(true);
  });

  it("is refused what only the operator may do, with the farm's reason and a non-zero exit", () => {
    const r = runCli(["world", "create", "--vendors", "ats=hirewire", "--farm", farm.url], { WIREBENCH_KEY: key, WIREBENCH_ADMIN_TOKEN: "" });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/participants create worlds of public tasks/);
  });
});
