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
import { runCliAsync } from "../run-cli.ts";

/**
 * Every lane, each through its real CLI (or the built-in loop) in the real sandbox against a real farm.
 * The lanes run side by side, each lane's attempts one after another: an attempt mostly waits (on the
 * agent CLI's start-up and retries, on the wall clock), so four at once cost about what one costs.
 */
const lanes = LANES.map((l) => l.id);
let farm: LocalFarm;
let naiveScore: number;
const out = mkdtempSync(join(tmpdir(), "wb-lanes-"));
const ENV = { WIREBENCH_ADMIN_TOKEN: TEST_ADMIN };

interface Attempt {
  code: number | null;
  summary: any;
  read: (file: string) => any;
}

async function run(lane: string, model: string, extra: string[] = []): Promise<Attempt> {
  const r = await runCliAsync(["run", "--task", "task-0001", "--agent", lane, "--model", model, "--json", "--farm", farm.url, "--out", out, ...extra], ENV, 240_000);
  if (!r.stdout.trim()) throw new Error(`${lane} ${model}: no summary (exit ${r.code}): ${r.stderr}`);
  const summary = JSON.parse(r.stdout);
  const read = (file: string) => JSON.parse(readFileSync(join(out, summary.attempt, file), "utf8"));
  return { code: r.code, summary, read };
}

function script(lane: string, name: string, steps: unknown[]): string {
  const file = join(out, `${name}-${lane}.json`);
  writeFileSync(file, JSON.stringify({ name, steps }));
  return `scripted:${file}`;
}

/** The attempts each lane's tests judge: made once per lane, in this order, each after the one before. */
const KINDS = ["gold", "nothing", "naive", "cheat", "stubborn", "overloaded"] as const;
type Kind = (typeof KINDS)[number];
const attempts: Record<string, Record<Kind, Promise<Attempt>>> = {};

function startLane(lane: string): Record<Kind, Promise<Attempt>> {
  const args: Record<Kind, [model: string, extra: string[]]> = {
    gold: ["scripted:gold", []],
    nothing: ["scripted:nothing", []],
    naive: ["scripted:naive", []],
    cheat: ["scripted:cheat", []],
    stubborn: [
      script(lane, "stubborn", [
        { kind: "bash", command: "trap '' TERM; while true; do sleep 1; done" },
        { kind: "done", text: "never" },
      ]),
      ["--time-limit", "6"],
    ],
    overloaded: [script(lane, "overloaded", [{ kind: "fail", status: 529, body: JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }) }]), []],
  };
  const started = {} as Record<Kind, Promise<Attempt>>;
  let before: Promise<unknown> = Promise.resolve();
  for (const kind of KINDS) {
    // Each waits for the one before, whatever its outcome: a failed attempt is reported by its own test.
    started[kind] = before.catch(() => {}).then(() => run(lane, ...args[kind]));
    started[kind].catch(() => {});
    before = started[kind];
  }
  return started;
}

beforeAll(async () => {
  farm = await startFarm();
  const task = findTask("task-0001")!.task;
  naiveScore = (await gradeRepo({ farm: { url: farm.url, adminToken: TEST_ADMIN, close: async () => {} }, task, repoDir: probeSource(task, "naive") })).score;
  for (const lane of lanes) attempts[lane] = startLane(lane);
});
afterAll(async () => {
  await Promise.allSettled(Object.values(attempts).flatMap((a) => Object.values(a)));
  await farm?.stop();
});

const kindsOf = (a: Attempt) => (a.read("trajectory.json").events as { i: number; kind: string }[]).map((e) => e.kind);

describe.each(lanes)("lane %s", (lane) => {
  it("scripted:gold scores 100; its vendor requests are tagged with the tool call that made them", async () => {
    const r = await attempts[lane].gold;
    expect(r.code).toBe(0);
    expect(r.summary).toMatchObject({ lane, score: 100, solved: true, failure_class: "candidate_result" });
    expect(r.summary.usage.cost_usd).toBeNull();
    const kinds = kindsOf(r);
    // The ATIF export holds the same run: steps numbered from 1, every observation answering a tool call of its step.
    const atif = r.read("trajectory.atif.json");
    expect(atif.schema_version).toBe("ATIF-v1.4");
    expect(atif.steps.map((s: { step_id: number }) => s.step_id)).toEqual(kinds.map((_, n) => n + 1));
    for (const step of atif.steps) for (const o of step.observation?.results ?? []) expect(step.tool_calls.map((c: { tool_call_id: string }) => c.tool_call_id)).toContain(o.source_call_id);
    expect(atif.final_metrics.total_prompt_tokens).toBe(r.summary.usage.input_tokens);
    const tagged = r.read("vendor-requests.json").development.roles.ats as { event: number | null }[];
    expect(tagged.length).toBeGreaterThan(0);
    expect(tagged.every((t) => t.event !== null && kinds[t.event] === "tool_call")).toBe(true);
  });

  it("scripted:nothing scores 0 and scripted:naive scores what the naive probe scores", async () => {
    const [nothing, naive] = await Promise.all([attempts[lane].nothing, attempts[lane].naive]);
    expect(nothing.summary).toMatchObject({ score: 0, solved: false });
    expect(naive.summary).toMatchObject({ score: naiveScore, solved: false });
  });

  it("scripted:cheat is refused at every way out; a printed provider key rejects the patch", async () => {
    const r = await attempts[lane].cheat;
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

  it("an agent that ignores SIGTERM is stopped at the wall clock", async () => {
    const r = await attempts[lane].stubborn;
    expect(r.summary.stop_reason).toBe("wall_clock");
    expect(r.summary.timing.agent_s).toBeLessThan(6 + 30 + 5);
  });

  it("a provider answering 529 leaves the attempt ungraded", async () => {
    const r = await attempts[lane].overloaded;
    expect(r.code).toBe(1);
    expect(r.summary).toMatchObject({ reward: null, failure_class: "provider_infrastructure_failure" });
  });
});

describe("trajectories across lanes", () => {
  it("every lane's gold run has the same event kinds in the same order", async () => {
    const kinds = await Promise.all(lanes.map(async (lane) => kindsOf(await attempts[lane].gold)));
    const [first, ...rest] = kinds;
    rest.forEach((k, i) => expect(k, lanes[i + 1]).toEqual(first));
  });
});
