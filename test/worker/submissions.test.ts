/**
 * Hosted submissions: a participant's patch stored (schema-validated, size-capped,
 * of a public task, within quota), queued for the operator's runner (admin only),
 * claimed once, completed only by the claim's holder with a run the operator
 * sealed, and its verdict read by its participant alone. No verdict or score is
 * ever taken from a request body.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, admin, as, farm, participant } from "./helpers.ts";

const PATCH = "diff --git a/src/main.ts b/src/main.ts\n--- a/src/main.ts\n+++ b/src/main.ts\n@@ -1 +1 @@\n-a\n+b\n";
const submit = (key: string, body: unknown) => as(key, "POST", "/v1/submissions", body);
const prediction = (over: Record<string, unknown> = {}) => ({ task: "task-0001", model: "lab-model-1", patch: PATCH, ...over });

/** Claims every pending submission, so a test starts from an empty queue. */
async function drain(): Promise<void> {
  while ((await admin("POST", "/v1/submissions/claim", {})).body.submission);
}

/** A run of task-0001 sealed and graded by the operator (or by a participant, with its key). */
async function gradedRun(key = ADMIN, task = "task-0001"): Promise<string> {
  const w = (await as(key, "POST", "/v1/worlds", { task })).body.world as string;
  const scenario = task === "task-0001" ? "initial_sync" : "full_sync";
  expect((await as(key, "POST", `/v1/worlds/${w}/roles/ats/recreate`, { checkpoint: 0 })).status).toBe(200);
  const sealed = await as(key, "POST", "/v1/runs", { world: w, scenarios: [{ name: scenario, epochs: { ats: [1] }, runs: [] }] });
  expect(sealed.status, JSON.stringify(sealed.body)).toBe(201);
  expect((await as(key, "POST", `/v1/runs/${sealed.body.run}/grade`)).status).toBe(200);
  return sealed.body.run;
}

const tick = () => new Promise((r) => setTimeout(r, 5));

describe("submitting a patch", () => {
  it("stores a participant's patch for a public task, pending, and shows it without the patch", async () => {
    const p = await participant("sub-store");
    const res = await submit(p.key, prediction());
    expect(res.status).toBe(201);
    const s = res.body.submission;
    expect(s).toMatchObject({ task: "task-0001", model: "lab-model-1", participant: p.participant, status: "pending", patchBytes: PATCH.length, run: null, score: null });
    expect(s.id).toMatch(/^sub_[0-9a-f]{16}$/);
    expect(s.patchSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(s).not.toHaveProperty("patch");
    expect((await as(p.key, "GET", `/v1/submissions/${s.id}`)).body).toMatchObject({ submission: { id: s.id, status: "pending" }, verdict: null });
  });

  it("needs a participant key", async () => {
    expect((await farm("/v1/submissions", { method: "POST", body: JSON.stringify(prediction()) })).status).toBe(401);
    expect((await submit("wbk_00000000000000000000000000000000", prediction())).status).toBe(401);
    const byOperator = await admin("POST", "/v1/submissions", prediction());
    expect(byOperator.status).toBe(403);
    expect(byOperator.body.error).toMatch(/grade-all --predictions/);
  });

  it("validates the body against the prediction schema and needs a task that exists", async () => {
    const p = await participant("sub-schema");
    const cases: [unknown, number, RegExp][] = [
      [{ task: "task-0001", model: "m" }, 400, /patch/],
      [prediction({ model: "has space" }), 400, /model/],
      [prediction({ task: "0001" }), 400, /task/],
      [prediction({ score: 100 }), 400, /score/],
      [prediction({ task: "task-9999" }), 404, /unknown task "task-9999"/],
    ];
    for (const [body, status, message] of cases) {
      const r = await submit(p.key, body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.error).toMatch(message);
    }
    const notJson = await farm("/v1/submissions", { method: "POST", headers: { authorization: `Bearer ${p.key}` }, body: "{nope" });
    expect(notJson.status).toBe(400);
    expect((await as(p.key, "GET", "/v1/submissions")).body.submissions).toEqual([]);
  });

  it("caps the patch at 1 MiB and the body at 4 MiB, storing nothing over", async () => {
    const p = await participant("sub-size");
    const big = await submit(p.key, prediction({ patch: "x".repeat(1024 ** 2 + 1) }));
    expect(big.status).toBe(413);
    expect(big.body.error).toMatch(/1048577 bytes, over the 1048576-byte limit/);
    const huge = await submit(p.key, prediction({ patch: "x".repeat(5 * 1024 ** 2) }));
    expect(huge.status).toBe(413);
    expect(huge.body.error).toMatch(/over the 4194304-byte limit/);
    expect((await submit(p.key, prediction({ patch: "x".repeat(1024 ** 2) }))).status).toBe(201);
    expect((await as(p.key, "GET", "/v1/submissions")).body.submissions).toHaveLength(1);
  });

  it("keeps to the daily quota, even under concurrent submits, answering 429 with Retry-After", async () => {
    const p = await participant("sub-quota", { submissionsPerDay: 3 });
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => submit(p.key, prediction({ model: `m${i}` }))));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 429, 429, 429]);
    const refused = results.find((r) => r.status === 429)!;
    expect(refused.body.error).toMatch(/3 per UTC day/);
    const msToMidnight = 86_400_000 - (Date.now() % 86_400_000);
    expect(Math.abs(Number(refused.headers.get("retry-after")) * 1000 - msToMidnight)).toBeLessThan(5_000);
    expect((await as(p.key, "GET", "/v1/submissions")).body.submissions).toHaveLength(3);
  });
});

describe("the operator's queue", () => {
  it("lists every participant's pending submissions to the operator, and a participant only its own", async () => {
    const a = await participant("sub-list-a");
    const b = await participant("sub-list-b");
    const sa = (await submit(a.key, prediction())).body.submission.id;
    const sb = (await submit(b.key, prediction({ task: "task-0004" }))).body.submission.id;
    const pending = (await admin("GET", "/v1/submissions?status=pending")).body.submissions.map((s: { id: string }) => s.id);
    expect(pending).toEqual(expect.arrayContaining([sa, sb]));
    expect((await as(a.key, "GET", "/v1/submissions")).body.submissions.map((s: { id: string }) => s.id)).toEqual([sa]);
    expect((await as(a.key, "GET", "/v1/submissions?status=pending")).body.submissions.map((s: { id: string }) => s.id)).toEqual([sa]);
    expect((await as(a.key, "GET", `/v1/submissions/${sb}`)).status).toBe(404);
    expect((await admin("GET", "/v1/submissions?status=lost")).status).toBe(400);
    for (const [method, path] of [
      ["POST", "/v1/submissions/claim"],
      ["POST", `/v1/submissions/${sa}/result`],
      ["POST", `/v1/submissions/${sa}/release`],
    ])
      expect((await as(a.key, method, path, { claim: "x", run: "run_x" })).status, path).toBe(403);
  });

  it("hands each pending submission to one claim only, even to claims made at once", async () => {
    const p = await participant("sub-claim");
    await drain();
    const one = (await submit(p.key, prediction())).body.submission.id;
    const pair = await Promise.all([admin("POST", "/v1/submissions/claim", {}), admin("POST", "/v1/submissions/claim", {})]);
    const got = pair.map((r) => r.body.submission?.id ?? null);
    expect(got.filter((x) => x !== null)).toEqual([one]);
    const claimed = pair.find((r) => r.body.submission)!.body.submission;
    expect(claimed).toMatchObject({ id: one, status: "claimed", patch: PATCH, claim: expect.stringMatching(/^clm_/) });
    const three = await Promise.all(["m1", "m2", "m3"].map((m) => submit(p.key, prediction({ model: m }))));
    const five = await Promise.all(Array.from({ length: 5 }, () => admin("POST", "/v1/submissions/claim", {})));
    const ids = five.map((r) => r.body.submission?.id).filter(Boolean);
    expect(ids.sort()).toEqual(three.map((r) => r.body.submission.id).sort());
    expect(five.filter((r) => r.body.submission === null)).toHaveLength(2);
    expect((await admin("GET", "/v1/submissions?status=pending")).body.submissions).toEqual([]);
  });
});

describe("a submission's result", () => {
  /** A fresh claimed submission of `task` by a new participant. */
  async function claimed(task = "task-0001") {
    const p = await participant(`sub-result-${task}`);
    await drain();
    const id = (await submit(p.key, prediction({ task }))).body.submission.id as string;
    await tick();
    const c = (await admin("POST", "/v1/submissions/claim", {})).body.submission;
    expect(c.id).toBe(id);
    await tick();
    return { p, id, claim: c.claim as string };
  }

  it("takes a run the operator sealed after the claim, and its participant alone reads the run's verdict", async () => {
    const { p, id, claim } = await claimed();
    const run = await gradedRun();
    const done = await admin("POST", `/v1/submissions/${id}/result`, { claim, run });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const verdict = (await admin("GET", `/v1/runs/${run}`)).body.verdict;
    expect(done.body.submission).toMatchObject({ status: "graded", run, score: verdict.score, solved: verdict.solved });
    const read = await as(p.key, "GET", `/v1/submissions/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.verdict).toEqual(verdict);
    expect(read.body.verdict.selfReported).toBeUndefined();
    const other = await participant("sub-result-other");
    expect((await as(other.key, "GET", `/v1/submissions/${id}`)).status).toBe(404);
    // Done once: the claim is spent, and the run grades this submission only.
    expect((await admin("POST", `/v1/submissions/${id}/result`, { claim, run })).status).toBe(409);
    const next = await claimed();
    const reused = await admin("POST", `/v1/submissions/${next.id}/result`, { claim: next.claim, run });
    expect(reused.status).toBe(409);
    expect(reused.body.error).toMatch(/already grades submission/);
  });

  it("never takes a verdict or a score from the body, nor a run a participant sealed, of another task, from before the claim or ungraded", async () => {
    const early = await gradedRun();
    await tick();
    const { p, id, claim } = await claimed();
    const forged = { task: "task-0001", runId: "run_x", score: 100, solved: true, checks: { l1: [], l2: [], l3: [] } };
    for (const body of [
      { claim, run: early, verdict: forged },
      { claim, run: early, score: 100 },
      { claim, verdict: forged },
      { claim, failure: "x", score: 100 },
    ]) {
      const r = await admin("POST", `/v1/submissions/${id}/result`, body);
      expect(r.status, JSON.stringify(Object.keys(body))).toBe(400);
    }
    const bySelf = await gradedRun(p.key);
    const selfRefused = await admin("POST", `/v1/submissions/${id}/result`, { claim, run: bySelf });
    expect(selfRefused.status).toBe(409);
    expect(selfRefused.body.error).toMatch(/sealed by a participant/);
    // The participant cannot report its own run either.
    expect((await as(p.key, "POST", `/v1/submissions/${id}/result`, { claim, run: bySelf })).status).toBe(403);
    const otherTask = await gradedRun(ADMIN, "task-0004");
    expect((await admin("POST", `/v1/submissions/${id}/result`, { claim, run: otherTask })).body.error).toMatch(/is of task-0004/);
    expect((await admin("POST", `/v1/submissions/${id}/result`, { claim, run: early })).body.error).toMatch(/sealed before the submission was claimed/);
    const w = (await admin("POST", "/v1/worlds", { task: "task-0001" })).body.world as string;
    await admin("POST", `/v1/worlds/${w}/roles/ats/recreate`, { checkpoint: 0 });
    const ungraded = (await admin("POST", "/v1/runs", { world: w, scenarios: [{ name: "initial_sync", epochs: { ats: [1] }, runs: [] }] })).body.run;
    expect((await admin("POST", `/v1/submissions/${id}/result`, { claim, run: ungraded })).body.error).toMatch(/has no verdict yet/);
    expect((await admin("POST", `/v1/submissions/${id}/result`, { claim: "clm_wrong", run: early })).status).toBe(409);
    expect((await as(p.key, "GET", `/v1/submissions/${id}`)).body).toMatchObject({ submission: { status: "claimed", run: null, score: null }, verdict: null });
  });

  it("records a refused patch as failed, scored 0 with the reason", async () => {
    const { p, id, claim } = await claimed();
    const r = await admin("POST", `/v1/submissions/${id}/result`, { claim, failure: "the patch does not apply to the starter: error: corrupt patch at line 8" });
    expect(r.status).toBe(200);
    expect((await as(p.key, "GET", `/v1/submissions/${id}`)).body).toMatchObject({
      submission: { status: "failed", score: 0, solved: false, run: null, reason: "the patch does not apply to the starter: error: corrupt patch at line 8" },
      verdict: null,
    });
  });

  it("hands an abandoned claim (older than reclaimAfterS) to another runner; the first runner's claim then completes nothing", async () => {
    const { id, claim } = await claimed();
    expect((await admin("POST", "/v1/submissions/claim", {})).body.submission).toBeNull();
    await new Promise((r) => setTimeout(r, 1100));
    expect((await admin("POST", "/v1/submissions/claim", { reclaimAfterS: 60 })).body.submission).toBeNull();
    // Claims this file's earlier tests left are older still: they come first, oldest first, each once.
    let taken = (await admin("POST", "/v1/submissions/claim", { reclaimAfterS: 1 })).body.submission;
    const before = new Set<string>();
    while (taken && taken.id !== id) {
      expect(before.has(taken.id)).toBe(false);
      before.add(taken.id);
      taken = (await admin("POST", "/v1/submissions/claim", { reclaimAfterS: 1 })).body.submission;
    }
    expect(taken).toMatchObject({ id, status: "claimed" });
    expect(taken.claim).not.toBe(claim);
    expect((await admin("POST", `/v1/submissions/${id}/result`, { claim, failure: "late runner" })).status).toBe(409);
    expect((await admin("POST", `/v1/submissions/${id}/result`, { claim: taken.claim, failure: "second runner" })).body.submission).toMatchObject({ status: "failed", reason: "second runner" });
    expect((await admin("POST", "/v1/submissions/claim", { reclaimAfterS: 0 })).status).toBe(400);
  });

  it("lets the claim's holder give it back; the old claim then completes nothing", async () => {
    const { id, claim } = await claimed();
    expect((await admin("POST", `/v1/submissions/${id}/release`, { claim: "clm_wrong" })).status).toBe(409);
    const back = await admin("POST", `/v1/submissions/${id}/release`, { claim });
    expect(back.status).toBe(200);
    expect(back.body.submission).toMatchObject({ id, status: "pending", claimedAt: null });
    const again = (await admin("POST", "/v1/submissions/claim", {})).body.submission;
    expect(again.id).toBe(id);
    expect(again.claim).not.toBe(claim);
    expect((await admin("POST", `/v1/submissions/${id}/result`, { claim, failure: "stale runner" })).status).toBe(409);
    expect((await admin("POST", `/v1/submissions/${id}/result`, { claim: again.claim, failure: "fresh runner" })).status).toBe(200);
  });
});
