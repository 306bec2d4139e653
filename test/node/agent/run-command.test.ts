import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalFarm } from "../../../scripts/farm/local-farm.ts";
import { startFarm, TEST_ADMIN } from "../farm.ts";
import { runCli } from "../run-cli.ts";

let farm: LocalFarm;
const out = mkdtempSync(join(tmpdir(), "wb-runs-"));
const ENV = { WIREBENCH_ADMIN_TOKEN: TEST_ADMIN, OPENAI_API_KEY: "" };

beforeAll(async () => {
  farm = await startFarm();
});
afterAll(async () => {
  await farm?.stop();
});

function run(model: string, extra: string[] = [], task = "task-0001") {
  const r = runCli(["run", "--task", task, "--agent", "direct", "--model", model, "--json", "--farm", farm.url, "--out", out, ...extra], ENV, 240_000);
  return { ...r, summary: r.stdout.trim() ? JSON.parse(r.stdout) : null };
}

function bundle(summary: { attempt: string }, file: string): any {
  const text = readFileSync(join(out, summary.attempt, file), "utf8");
  return file.endsWith(".json") ? JSON.parse(text) : text;
}

describe("wirebench run (every lane is put through its paces in cli-lanes.test.ts)", () => {
  it("scripted:gold scores 100 through the sandbox, with a bundle whose vendor requests name the tool call that made them", () => {
    const r = run("scripted:gold");
    expect(r.code, r.stderr).toBe(0);
    expect(r.summary).toMatchObject({ task: "task-0001", lane: "direct", model: "scripted:gold", score: 100, solved: true, reward: 1, failure_class: "candidate_result", stop_reason: "done" });
    for (const f of ["summary.json", "verdict.json", "trajectory.json", "transcript.jsonl", "patch.diff", "vendor-requests.json", "problem.md"])
      expect(existsSync(join(out, r.summary.attempt, f)), f).toBe(true);
    const trajectory = bundle(r.summary, "trajectory.json");
    expect(trajectory.schema).toBe("wirebench-trajectory/1");
    expect(trajectory.events.map((e: { i: number }) => e.i)).toEqual(trajectory.events.map((_: unknown, i: number) => i));
    const requests = bundle(r.summary, "vendor-requests.json");
    const dev = requests.development.roles.ats;
    expect(dev.length).toBeGreaterThan(3);
    const runEvent = trajectory.events.find((e: any) => e.kind === "tool_call" && String(e.input.command ?? "").includes("src/main.ts"));
    expect(dev.every((row: { event: number }) => row.event === runEvent.i)).toBe(true);
    expect(Object.keys(requests.grading.roles.ats).length).toBeGreaterThan(0);
    expect(bundle(r.summary, "patch.diff")).toContain("diff --git a/src/main.ts");
    expect(r.summary.usage.input_tokens).toBeGreaterThan(0);
    expect(r.summary.worlds).toEqual({ development: expect.stringMatching(/^r1-t0001-s\d+-[0-9a-f]{16}$/), grading: expect.stringMatching(/^r1-t0001-s\d+-[0-9a-f]{16}$/) });
  });

  it("publishes world ids from which anyone can seed the attempt's starting state again", async () => {
    const r = run("scripted:nothing", ["--seed", "3"]);
    expect(r.code, r.stderr).toBe(0);
    const call = (body: unknown) =>
      fetch(`${farm.url}/v1/worlds`, { method: "POST", headers: { authorization: `Bearer ${ENV.WIREBENCH_ADMIN_TOKEN}`, "content-type": "application/json" }, body: JSON.stringify(body) }).then(
        (res) => res.json() as Promise<any>,
      );
    const again = await call({ reproduce: r.summary.worlds.development });
    const fresh = await call({ task: "task-0001", seed: r.summary.seed });
    expect(again.world).not.toBe(r.summary.worlds.development);
    expect(again.vendors.ats.stateHash).toBe(fresh.vendors.ats.stateHash);
  });

  it("run-all prints one JSON line per attempt and skips finished attempts on a rerun", () => {
    const sweep = () =>
      runCli(["run-all", "task-0001", "task-0004", "--agent", "direct", "--model", "scripted:nothing", "--trials", "2", "--jobs", "2", "--farm", farm.url, "--out", out], ENV, 240_000);
    const first = sweep();
    expect(first.code, first.stderr).toBe(0);
    const rows = first.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => `${r.task} t${r.trial}`).sort()).toEqual(["task-0001 t1", "task-0001 t2", "task-0004 t1", "task-0004 t2"]);
    expect(rows.every((r) => r.score === 0 && !r.skipped)).toBe(true);
    const again = sweep();
    const rerun = again.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rerun).toHaveLength(4);
    expect(rerun.every((r) => r.skipped === true)).toBe(true);
  });

  it.each([
    [["--task", "task-9999", "--agent", "direct", "--model", "scripted:gold"], /unknown task "task-9999"/],
    [["--task", "task-0001", "--agent", "cursor", "--model", "scripted:gold"], /unknown lane "cursor"/],
    [["--task", "task-0001", "--agent", "direct", "--model", "gpt-5"], /needs OPENAI_API_KEY/],
    [["--task", "task-0001", "--agent", "direct", "--model", "scripted:nosuch"], /not a generated script/],
    [["--task", "task-0001", "--agent", "direct", "--model", "scripted:gold", "--farm", "http://127.0.0.1:9"], /cannot reach the farm/],
  ])("bad input %j prints one line and exits 2 before any world or workspace exists", (args, message) => {
    const before = readdirSync(out).length;
    const r = runCli(["run", ...args, "--out", out, ...(args.includes("--farm") ? [] : ["--farm", farm.url])], ENV, 60_000);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(readdirSync(out).length).toBe(before);
  });
});
