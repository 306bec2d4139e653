/**
 * A score depends only on what the farm observed: snapshots are taken by the
 * farm, a run is bound to its world's task, seed and recreate epochs (sealed
 * once), error classes are the operator's, and a participant's run is marked
 * self-reported. Each case below is a forgery a participant once got through.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { admin, as, farm, participant, rel, roleObject } from "./helpers.ts";

/** A participant's task-0001 world with `recreates` recreates of its one role (epochs 1..recreates). */
async function taskWorld(key: string, recreates: number): Promise<{ world: string; base: string }> {
  const made = await as(key, "POST", "/v1/worlds", { task: "task-0001" });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  for (let i = 0; i < recreates; i++) expect((await as(key, "POST", `/v1/worlds/${made.body.world}/roles/ats/recreate`, { checkpoint: 0 })).status).toBe(200);
  return { world: made.body.world as string, base: rel(made.body.vendors.ats.baseUrl) };
}

/** A ground-truth snapshot as a forger would copy it from another world. */
const FORGED_SNAPSHOT = { checkpoint: 0, epoch: 1, entities: { candidate: [{ id: "c1", deleted: false, record: { id: "c1" } }] } };

describe("a participant cannot forge a graded run", () => {
  it("refuses snapshots in the seal body: they are the farm's", async () => {
    const p = await participant("forger-snapshots");
    const { world } = await taskWorld(p.key, 1);
    const res = await as(p.key, "POST", "/v1/runs", {
      world,
      task: "task-0001",
      seed: 7,
      scenarios: [{ name: "initial_sync", epochs: { ats: [1] }, runs: [], snapshots: { after_backfill: { ats: FORGED_SNAPSHOT } } }],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/snapshots/);
  });

  it("refuses epoch 0, an epoch no recreate opened, a duplicated epoch and a skipped one", async () => {
    const p = await participant("forger-epochs");
    const { world } = await taskWorld(p.key, 2);
    for (const epochs of [[0], [1, 2, 3], [1, 1], [2], [2, 1]]) {
      const res = await as(p.key, "POST", "/v1/runs", { world, task: "task-0001", seed: 7, scenarios: [{ name: "initial_sync", epochs: { ats: epochs }, runs: [] }] });
      expect(res.status, JSON.stringify(epochs)).toBe(400);
      expect(res.body.error).toMatch(/epochs/);
    }
    const split = await as(p.key, "POST", "/v1/runs", {
      world,
      task: "task-0001",
      seed: 7,
      scenarios: [
        { name: "initial_sync", epochs: { ats: [1] }, runs: [] },
        { name: "initial_sync", epochs: { ats: [2] }, runs: [] },
      ],
    });
    expect(split.status).toBe(400);
    expect(split.body.error).toMatch(/initial_sync/);
  });

  it("binds the run to its world's task and seed", async () => {
    const p = await participant("forger-task");
    const { world } = await taskWorld(p.key, 1);
    const scenarios = [{ name: "initial_sync", epochs: { ats: [1] }, runs: [] }];
    const otherTask = await as(p.key, "POST", "/v1/runs", { world, task: "task-0004", seed: 7, scenarios });
    expect(otherTask.status).toBe(409);
    expect(otherTask.body.error).toMatch(/task-0001/);
    const otherSeed = await as(p.key, "POST", "/v1/runs", { world, task: "task-0001", seed: 999, scenarios });
    expect(otherSeed.status).toBe(409);
    expect(otherSeed.body.error).toMatch(/seed/);
    const bare = (await admin("POST", "/v1/worlds", { vendors: { ats: "staffline" } })).body.world as string;
    const bareSeal = await admin("POST", "/v1/runs", { world: bare, task: "task-0001", seed: 1, scenarios: [] });
    expect(bareSeal.status).toBe(400);
    expect(bareSeal.body.error).toMatch(/task/);
  });

  it("leaves error classes to the operator", async () => {
    const p = await participant("forger-error");
    const { world } = await taskWorld(p.key, 1);
    const res = await as(p.key, "POST", "/v1/runs", {
      world,
      task: "task-0001",
      seed: 7,
      error: { class: "benchmark_infrastructure_failure", message: "not my fault" },
      scenarios: [{ name: "initial_sync", epochs: { ats: [1] }, runs: [] }],
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/error/);
    const op = (await admin("POST", "/v1/worlds", { task: "task-0001" })).body.world as string;
    const byOperator = await admin("POST", "/v1/runs", { world: op, error: { class: "candidate_setup_failure", message: "no entry script" }, scenarios: [] });
    expect(byOperator.status).toBe(201);
    expect((await admin("GET", `/v1/runs/${byOperator.body.run}`)).body.run.error).toMatchObject({ class: "candidate_setup_failure" });
  });

  it("seals a world once", async () => {
    const p = await participant("forger-twice");
    const { world } = await taskWorld(p.key, 1);
    const scenarios = [{ name: "initial_sync", epochs: { ats: [1] }, runs: [] }];
    expect((await as(p.key, "POST", "/v1/runs", { world, scenarios })).status).toBe(201);
    const again = await as(p.key, "POST", "/v1/runs", { world, scenarios });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already sealed/);
  });

  it("cannot read a task world's ground truth; the operator can", async () => {
    const p = await participant("forger-truth");
    const { world } = await taskWorld(p.key, 0);
    const res = await as(p.key, "GET", `/v1/worlds/${world}/roles/ats/records`);
    expect(res.status).toBe(403);
    expect(res.body).not.toHaveProperty("entities");
    const truth = await admin("GET", `/v1/worlds/${world}/roles/ats/records`);
    expect(truth.status).toBe(200);
    expect(Object.keys(truth.body.entities).length).toBeGreaterThan(0);
  });
});

describe("snapshots the farm takes", () => {
  it("answer with a receipt, are sealed from the world's object by epoch, and mark a participant's run self-reported", async () => {
    const p = await participant("honest-lab");
    const { world, base } = await taskWorld(p.key, 1);
    const denied = await farm(`${base}/svc/candidates`);
    expect(denied.status).toBe(401);
    await denied.arrayBuffer();
    const receipt = await as(p.key, "POST", `/v1/worlds/${world}/roles/ats/snapshots`, { label: "after_backfill" });
    expect(receipt.status).toBe(201);
    expect(receipt.body).toMatchObject({ world, role: "ats", label: "after_backfill", epoch: 1, checkpoint: 0 });
    expect(receipt.body.records).toBeGreaterThan(0);
    expect(receipt.body).not.toHaveProperty("entities");
    expect((await as(p.key, "POST", `/v1/worlds/${world}/roles/ats/snapshots`, { label: "" })).status).toBe(400);

    const sealed = await as(p.key, "POST", "/v1/runs", { world, scenarios: [{ name: "initial_sync", epochs: { ats: [1] }, runs: [] }] });
    expect(sealed.status, JSON.stringify(sealed.body)).toBe(201);
    const truth = await admin("GET", `/v1/worlds/${world}/roles/ats/records`);
    const ev = await as(p.key, "GET", `/v1/runs/${sealed.body.run}/evidence`);
    expect(ev.body).toMatchObject({ task: "task-0001", seed: 7, selfReported: true });
    expect(ev.body.scenarios[0].snapshots.after_backfill.ats).toEqual({ ...truth.body, epoch: 1 });
    expect(ev.body.scenarios[0].requests.ats).toHaveLength(1);

    const graded = await as(p.key, "POST", `/v1/runs/${sealed.body.run}/grade`);
    expect(graded.status).toBe(200);
    expect(graded.body.selfReported).toBe(true);
    expect(graded.body.solved).toBe(false);
    expect((await as(p.key, "GET", `/v1/runs/${sealed.body.run}`)).body.run.selfReported).toBe(true);
  });

  it("keep the last snapshot of a label across a scenario's epochs, and an operator's run is not self-reported", async () => {
    const w = (await admin("POST", "/v1/worlds", { task: "task-0001" })).body.world as string;
    for (const [checkpoint, label] of [
      [0, "cp0"],
      [1, "cp1"],
      [1, "cp1"],
    ] as const) {
      expect((await admin("POST", `/v1/worlds/${w}/roles/ats/recreate`, { checkpoint })).status).toBe(200);
      expect((await admin("POST", `/v1/worlds/${w}/roles/ats/snapshots`, { label })).status).toBe(201);
    }
    const sealed = await admin("POST", "/v1/runs", {
      world: w,
      task: "task-0001",
      seed: 7,
      scenarios: [
        { name: "initial_sync", epochs: { ats: [1] }, runs: [] },
        { name: "incremental_catch_up", epochs: { ats: [2, 3] }, runs: [] },
      ],
    });
    expect(sealed.status, JSON.stringify(sealed.body)).toBe(201);
    const ev = (await admin("GET", `/v1/runs/${sealed.body.run}/evidence`)).body;
    expect(ev.selfReported).toBe(false);
    expect(Object.keys(ev.scenarios[0].snapshots)).toEqual(["cp0"]);
    expect(Object.keys(ev.scenarios[1].snapshots)).toEqual(["cp1"]);
    expect(ev.scenarios[1].snapshots.cp1.ats).toMatchObject({ checkpoint: 1, epoch: 3 });
    const graded = await admin("POST", `/v1/runs/${sealed.body.run}/grade`);
    expect(graded.body).not.toHaveProperty("selfReported");
  });

  it("store a snapshot larger than one storage value in parts and seal it whole", { timeout: 60_000 }, async () => {
    const w = (await admin("POST", "/v1/worlds", { task: "task-0006" })).body.world as string;
    expect((await admin("POST", `/v1/worlds/${w}/roles/ats/recreate`, { checkpoint: 0 })).status).toBe(200);
    const receipt = await admin("POST", `/v1/worlds/${w}/roles/ats/snapshots`, { label: "after" });
    expect(receipt.status).toBe(201);
    expect(receipt.body.records).toBeGreaterThan(5_000);
    const parts = await runInDurableObject(roleObject(w, "ats"), (_o, state) => state.storage.sql.exec("SELECT count(*) AS n FROM snapshots WHERE epoch = 1 AND label = 'after'").one().n as number);
    expect(parts).toBeGreaterThan(1);
    const sealed = await admin("POST", "/v1/runs", { world: w, scenarios: [{ name: "backfill_through_faults", epochs: { ats: [1] }, runs: [] }] });
    expect(sealed.status, JSON.stringify(sealed.body)).toBe(201);
    const truth = (await admin("GET", `/v1/worlds/${w}/roles/ats/records`)).body;
    const ev = (await admin("GET", `/v1/runs/${sealed.body.run}/evidence`)).body;
    expect(ev.scenarios[0].snapshots.after.ats).toEqual(truth);
  });
});
