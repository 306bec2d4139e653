import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findTask } from "../../../declarations/tasks/index.ts";
import { LANES } from "../../../scripts/agent/lanes/index.ts";
import { gradeRepo } from "../../../scripts/harness/grade-repo.ts";
import { probeSource } from "../../../scripts/harness/workspace.ts";
import type { LocalFarm } from "../../../scripts/farm/local-farm.ts";
import { startFarm, TEST_ADMIN } from "../farm.ts";
import { runCli } from "../run-cli.ts";

/** Every lane, each through its real CLI (or the built-in loop) in the real sandbox against a real farm. */
const lanes = LANES.map((l) => l.id);
let farm: LocalFarm;
let naiveScore: number;
const out = mkdtempSync(join(tmpdir(), "wb-lanes-"));
const ENV = { WIREBENCH_ADMIN_TOKEN: TEST_ADMIN };
const kinds: Record<string, string[]> = {};

beforeAll(async () => {
  farm = await startFarm();
  const task = findTask("task-0001")!.task;
  naiveScore = (await gradeRepo({ farm: { url: farm.url, adminToken: TEST_ADMIN, close: async () => {} }, task, repoDir: probeSource(task, "naive") })).score;
});
afterAll(async () => {
  await farm?.stop();
});

function run(lane: string, model: string, extra: string[] = []) {
  const r = runCli(["run", "--task", "task-0001", "--agent", lane, "--model", model, "--json", "--farm", farm.url, "--out", out, ...extra], ENV, 240_000);
  if (!r.stdout.trim()) throw new Error(`no summary (exit ${r.code}): ${r.stderr}`);
  const summary = JSON.parse(r.stdout);
  const read = (file: string) => JSON.parse(readFileSync(join(out, summary.attempt, file), "utf8"));
  return { code: r.code, summary, read };
}

describe.each(lanes)("lane %s", (lane) => {
  it("scripted:gold scores 100; its vendor requests are tagged with the tool call that made them", () => {
    const r = run(lane, "scripted:gold");
    expect(r.code).toBe(0);
    expect(r.summary).toMatchObject({ lane, score: 100, solved: true, failure_class: "candidate_result" });
    expect(r.summary.usage.cost_usd).toBeNull();
    const events = r.read("trajectory.json").events as { i: number; kind: string }[];
    kinds[lane] = events.map((e) => e.kind);
    // The ATIF export holds the same run: steps numbered from 1, every observation answering a tool call of its step.
    const atif = r.read("trajectory.atif.json");
    expect(atif.schema_version).toBe("ATIF-v1.4");
    expect(atif.steps.map((s: { step_id: number }) => s.step_id)).toEqual(events.map((_, n) => n + 1));
    for (const step of atif.steps) for (const o of step.observation?.results ?? []) expect(step.tool_calls.map((c: { tool_call_id: string }) => c.tool_call_id)).toContain(o.source_call_id);
    expect(atif.final_metrics.total_prompt_tokens).toBe(r.summary.usage.input_tokens);
    const tagged = r.read("vendor-requests.json").development.roles.ats as { event: number | null }[];
    expect(tagged.length).toBeGreaterThan(0);
    expect(tagged.every((t) => t.event !== null && events[t.event].kind === "tool_call")).toBe(true);
  });

  it("scripted:nothing scores 0 and scripted:naive scores what the naive probe scores", () => {
    expect(run(lane, "scripted:nothing").summary).toMatchObject({ score: 0, solved: false });
    expect(run(lane, "scripted:naive").summary).toMatchObject({ score: naiveScore, solved: false });
  });

  it("scripted:cheat is refused at every way out; a printed provider key rejects the patch", () => {
    const r = run(lane, "scripted:cheat");
    const refused = (r.read("proxy-log.json") as { target: string; refused: boolean }[]).filter((p) => p.refused).map((p) => p.target);
    expect(refused).toEqual(expect.arrayContaining(["/v1/worlds", expect.stringMatching(/^\/w\/w_0000000000000000\//), "http://example.com/", "example.com:443"]));
    if (lane === "direct") {
      // The built-in loop keeps the key on the host: the sandbox has none to print.
      expect(r.summary.failure_class).toBe("candidate_result");
    } else {
      expect(r.code).toBe(1);
      expect(r.summary).toMatchObject({ failure_class: "secret_exfiltration", reward: null, secret_redaction: { detected: true } });
      expect(readFileSync(join(out, r.summary.attempt, "patch.diff"), "utf8")).toBe("");
      expect(readFileSync(join(out, r.summary.attempt, "transcript.jsonl"), "utf8")).toContain("[REDACTED_RUNTIME_SECRET]");
    }
  });

  it("an agent that ignores SIGTERM is stopped at the wall clock", () => {
    const script = join(out, `stubborn-${lane}.json`);
    writeFileSync(
      script,
      JSON.stringify({
        name: "stubborn",
        steps: [
          { kind: "bash", command: "trap '' TERM; while true; do sleep 1; done" },
          { kind: "done", text: "never" },
        ],
      }),
    );
    const r = run(lane, `scripted:${script}`, ["--time-limit", "6"]);
    expect(r.summary.stop_reason).toBe("wall_clock");
    expect(r.summary.timing.agent_s).toBeLessThan(6 + 30 + 5);
  });

  it("a provider answering 529 leaves the attempt ungraded", () => {
    const script = join(out, `overloaded-${lane}.json`);
    writeFileSync(
      script,
      JSON.stringify({ name: "overloaded", steps: [{ kind: "fail", status: 529, body: JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }) }] }),
    );
    const r = run(lane, `scripted:${script}`);
    expect(r.code).toBe(1);
    expect(r.summary).toMatchObject({ reward: null, failure_class: "provider_infrastructure_failure" });
  });
});

describe("trajectories across lanes", () => {
  it("every lane's gold run has the same event kinds in the same order", () => {
    const [first, ...rest] = lanes;
    for (const lane of rest) expect(kinds[lane], lane).toEqual(kinds[first]);
  });
});
