/**
 * The hosted path end to end, on the real `serve` process and the real CLI:
 * a participant submits patches (`wirebench submit`), two operator runners
 * (`wirebench grade-all --from-farm`) drain the queue at once, each
 * submission graded exactly once in the sandbox and sealed by the operator,
 * and the participant reads its verdicts (`wirebench submissions`).
 */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findTask } from "../../declarations/tasks/index.ts";
import { takePatch } from "../../scripts/agent/take-patch.ts";
import { probeSource, taskDir } from "../../scripts/harness/workspace.ts";
import { runCliAsync, startServe } from "./run-cli.ts";

const ADMIN = { WIREBENCH_ADMIN_TOKEN: "submissions-cli-test", WIREBENCH_KEY: "" };
const root = mkdtempSync(join(tmpdir(), "wb-submissions-"));
let farm: Awaited<ReturnType<typeof startServe>>;
let key: string;
const asParticipant = () => ({ WIREBENCH_KEY: key, WIREBENCH_ADMIN_TOKEN: "" });

function patchFile(name: string, text: string): string {
  const file = join(root, name);
  writeFileSync(file, text);
  return file;
}

beforeAll(async () => {
  farm = await startServe([], ADMIN);
  const res = await fetch(`${farm.url}/v1/participants`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN.WIREBENCH_ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "hosted-lab" }),
  });
  key = ((await res.json()) as { key: string }).key;
});
afterAll(() => {
  farm?.proc.kill("SIGTERM");
});

describe("the hosted submission path", () => {
  it("a participant submits, two runners grade each submission once, and the participant reads the verdicts", async () => {
    const gold = takePatch(join(taskDir("task-0004"), "repo"), probeSource(findTask("task-0004")!.task, "gold"));
    if (!gold.ok) throw new Error(gold.reason);
    const goldFile = patchFile("gold.diff", gold.patch);
    const ids: Record<string, string> = {};
    for (const [model, file] of [
      ["lab-a", goldFile],
      ["lab-b", goldFile],
      ["lab-broken", patchFile("broken.diff", "diff --git a/src/main.ts b/src/main.ts\n--- a/src/main.ts\n+++ b/src/main.ts\n@@ -1 +1 @@\n-not the starter's line\n+x\n")],
    ]) {
      const r = await runCliAsync(["submit", "--task", "task-0004", "--model", model, "--patch", file, "--json", "--farm", farm.url], asParticipant());
      expect(r.code, r.stderr).toBe(0);
      const s = JSON.parse(r.stdout);
      expect(s).toMatchObject({ task: "task-0004", model, status: "pending" });
      ids[model] = s.id;
    }
    // Only the operator runs the queue.
    const refused = await runCliAsync(["grade-all", "--from-farm", farm.url], { ...asParticipant() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/operator's runner/);

    const outs = [join(root, "runner-1"), join(root, "runner-2")];
    const runners = await Promise.all(outs.map((out) => runCliAsync(["grade-all", "--from-farm", farm.url, "--out", out], ADMIN, 300_000)));
    for (const r of runners) expect(r.code, r.stderr).toBe(0);
    const graded = runners.flatMap((r) =>
      r.stdout
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    );
    // Each submission graded exactly once between the two runners, each bundle in one runner's folder.
    expect(graded.map((s) => s.submission.id).sort()).toEqual(Object.values(ids).sort());
    const bundles = outs.flatMap((out) => (existsSync(out) ? readdirSync(out) : []));
    expect(bundles.sort()).toEqual(graded.map((s) => s.attempt).sort());
    for (const s of graded) expect(s.attempt).toContain(s.submission.id);

    const read = async (id: string) => {
      const r = await runCliAsync(["submissions", id, "--json", "--farm", farm.url], asParticipant());
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    for (const model of ["lab-a", "lab-b"]) {
      const { submission, verdict } = await read(ids[model]);
      expect(submission).toMatchObject({ status: "graded", score: 100, solved: true });
      // Sealed by the operator's runner: a verdict of the farm's own, not self-reported.
      expect(verdict).toMatchObject({ task: "task-0004", score: 100, solved: true, runId: submission.run });
      expect(verdict.selfReported).toBeUndefined();
      expect(graded.find((s) => s.submission.id === ids[model])).toMatchObject({ run: submission.run, score: 100 });
    }
    const broken = await read(ids["lab-broken"]);
    expect(broken).toMatchObject({ submission: { status: "failed", score: 0, run: null }, verdict: null });
    expect(broken.submission.reason).toMatch(/^the patch does not apply to the starter: error: patch failed: src\/main\.ts:1/);

    const list = await runCliAsync(["submissions", "--farm", farm.url], asParticipant());
    expect(list.stdout.trim().split("\n")).toHaveLength(3);
    expect(list.stdout).toMatch(new RegExp(`${ids["lab-broken"]}  task-0004  lab-broken  failed  score 0`));
    // Nothing is left for a later runner.
    const again = await runCliAsync(["grade-all", "--from-farm", farm.url, "--out", join(root, "runner-3")], ADMIN, 120_000);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe("");
  }, 480_000);

  it("refuses a submission the operator makes, or one without --farm, with one line and exit 2", async () => {
    const file = patchFile("empty.diff", "");
    const byOperator = await runCliAsync(["submit", "--task", "task-0004", "--model", "m", "--patch", file, "--farm", farm.url], ADMIN);
    expect(byOperator.code).toBe(2);
    expect(byOperator.stderr).toMatch(/submissions are a participant's/);
    const noFarm = await runCliAsync(["submit", "--task", "task-0004", "--model", "m", "--patch", file], asParticipant());
    expect(noFarm.code).toBe(2);
    expect(noFarm.stderr.trim().split("\n")).toEqual([expect.stringMatching(/--farm URL is required/)]);
    const badModel = await runCliAsync(["submit", "--task", "task-0004", "--model", "has space", "--patch", file, "--farm", farm.url], asParticipant());
    expect(badModel.code).toBe(2);
    expect(badModel.stderr).toMatch(/model: a model label is/);
  });
});
