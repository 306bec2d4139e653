import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findTask } from "../../../declarations/tasks/index.ts";
import { gradeRepo } from "../../../scripts/harness/grade-repo.ts";
import { probeSource } from "../../../scripts/harness/workspace.ts";
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

describe("wirebench run --agent direct", () => {
  it("scripted:gold scores 100 through the sandbox, with a bundle whose vendor requests name the tool call that made them", () => {
    const r = run("scripted:gold");
    expect(r.code, r.stderr).toBe(0);
    expect(r.summary).toMatchObject({ task: "task-0001", lane: "direct", model: "scripted:gold", score: 100, solved: true, reward: 1, failure_class: "candidate_result", stop_reason: "done" });
    for (const f of ["summary.json", "verdict.json", "trajectory.json", "transcript.jsonl", "patch.diff", "vendor-requests.json", "problem.md"]) expect(existsSync(join(out, r.summary.attempt, f)), f).toBe(true);
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
  });

  it("scripted:nothing scores 0 and scripted:naive scores what the naive probe scores", async () => {
    const nothing = run("scripted:nothing");
    expect(nothing.code, nothing.stderr).toBe(0);
    expect(nothing.summary).toMatchObject({ score: 0, solved: false });
    const naive = run("scripted:naive");
    const task = findTask("task-0001")!.task;
    const probe = await gradeRepo({ farm: { url: farm.url, adminToken: TEST_ADMIN, close: async () => {} }, task, repoDir: probeSource(task, "naive") });
    expect(naive.summary.score).toBe(probe.score);
    expect(naive.summary.solved).toBe(false);
  });

  it("scripted:cheat is refused at every way out, and the proxy log names each refusal", () => {
    const r = run("scripted:cheat");
    expect(r.code, r.stderr).toBe(0);
    const proxy = bundle(r.summary, "proxy-log.json") as { target: string; refused: boolean; reason?: string }[];
    const refused = proxy.filter((p) => p.refused).map((p) => p.target);
    expect(refused).toEqual(expect.arrayContaining(["/v1/worlds", expect.stringMatching(/^\/w\/w_0000000000000000\/ats/), "http://example.com/", "example.com:443"]));
    const results = bundle(r.summary, "trajectory.json").events.filter((e: any) => e.kind === "tool_call").map((e: any) => e.result.output);
    expect(results[0]).toMatch(/No such file or directory/);
    expect(results[0]).not.toMatch(/"id"|candidates/);
    expect(results[1]).toMatch(/refused by the wirebench sandbox.*403/s);
    // The direct loop keeps the provider key on the host: there is nothing to print.
    expect(results[4]).toMatch(/^exit=0\nstdout:\nkey: \n/);
  });

  it("an agent that ignores SIGTERM is killed at the wall clock", () => {
    const script = join(out, "stubborn.json");
    writeFileSync(script, JSON.stringify({ name: "stubborn", steps: [{ kind: "bash", command: "trap '' TERM; while true; do sleep 1; done" }, { kind: "done", text: "never" }] }));
    const started = Date.now();
    const r = run(`scripted:${script}`, ["--time-limit", "4"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.summary.stop_reason).toBe("wall_clock");
    expect(r.summary.failure_class).toBe("candidate_runtime_failure");
    expect(r.summary.timing.agent_s).toBeLessThan(4 + 2 + 3);
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it("a provider that answers 529 leaves the attempt ungraded (exit 1)", () => {
    const script = join(out, "overloaded.json");
    writeFileSync(script, JSON.stringify({ name: "overloaded", steps: [{ kind: "fail", status: 529, body: JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }) }] }));
    const r = run(`scripted:${script}`);
    expect(r.code).toBe(1);
    expect(r.summary).toMatchObject({ reward: null, score: null, failure_class: "provider_infrastructure_failure", stop_reason: "provider_error" });
    expect(bundle(r.summary, "verdict.json")).toBeNull();
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
