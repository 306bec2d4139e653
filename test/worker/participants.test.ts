/**
 * Participant keys: what a participant may reach (public tasks, its own
 * worlds and runs) and what it may not (another's worlds, declarations,
 * operator routes), and its quotas.
 */
import { describe, expect, it } from "vitest";
import { admin, as, farm, participant, rel } from "./helpers.ts";

describe("participants", () => {
  it("are minted by the operator only, with a key shown once", async () => {
    const p = await participant("lab-a");
    expect(p.key).toMatch(/^wbk_[0-9a-f]{32}$/);
    expect(p.participant).toMatch(/^p_[0-9a-f]{16}$/);
    expect((await as(p.key, "POST", "/v1/participants", { name: "sneaky" })).status).toBe(403);
    expect((await as(p.key, "GET", "/v1/vendors")).status).toBe(403);
    const bad = await admin("POST", "/v1/participants", { name: "", quota: { liveWorlds: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/name/);
    expect(bad.body.error).toMatch(/quota\.liveWorlds/);
  });

  it("list public tasks with their tickets, and nothing of judges, fixtures or gold", async () => {
    const p = await participant("lab-tasks");
    const res = await as(p.key, "GET", "/v1/tasks");
    expect(res.status).toBe(200);
    const t1 = res.body.tasks.find((t: { id: string }) => t.id === "task-0001");
    expect(t1).toMatchObject({ id: "task-0001", kind: "build", vendors: ["staffline"] });
    expect(t1.ticket).toMatch(/StaffLine/);
    expect(Object.keys(t1).sort()).toEqual(["docsProfile", "id", "kind", "surfaces", "ticket", "title", "vendors"]);
    for (const t of res.body.tasks) expect(Object.keys(t).sort(), t.id).toEqual(["docsProfile", "id", "kind", "surfaces", "ticket", "title", "vendors"]);
  });

  it("create worlds of public tasks only, and see only their own", async () => {
    const a = await participant("lab-own-a");
    const b = await participant("lab-own-b");
    expect((await as(a.key, "POST", "/v1/worlds", { vendors: { ats: "hirewire" } })).status).toBe(403);
    expect((await as(a.key, "POST", "/v1/worlds", { task: "task-9999" })).status).toBe(404);
    const made = await as(a.key, "POST", "/v1/worlds", { task: "task-0004" });
    expect(made.status).toBe(201);
    const w = made.body.world as string;
    expect(w).toMatch(/^r1-t0004-s\d+-[0-9a-f]{16}$/);
    expect((await as(a.key, "GET", `/v1/worlds/${w}`)).status).toBe(200);
    for (const [method, path] of [
      ["GET", `/v1/worlds/${w}`],
      ["GET", `/v1/worlds/${w}/roles/ats/records`],
      ["POST", `/v1/worlds/${w}/roles/ats/snapshots`],
      ["GET", `/v1/worlds/${w}/roles/ats/requests`],
      ["POST", `/v1/worlds/${w}/roles/ats/recreate`],
      ["DELETE", `/v1/worlds/${w}`],
    ]) {
      const res = await as(b.key, method, path, path.endsWith("/recreate") ? { checkpoint: 0 } : path.endsWith("/snapshots") ? { label: "after" } : undefined);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toMatch(/unknown world/);
    }
    const sealedByB = await as(b.key, "POST", "/v1/runs", { world: w, task: "task-0004", seed: 1, scenarios: [] });
    expect(sealedByB.status).toBe(404);
    expect((await admin("GET", `/v1/worlds/${w}`)).status).toBe(200);
  });

  it("seal and grade their own runs against gold, read their own verdicts, and no one else's", async () => {
    const a = await participant("lab-runs-a");
    const b = await participant("lab-runs-b");
    const w = (await as(a.key, "POST", "/v1/worlds", { task: "task-0001" })).body.world as string;
    expect((await as(a.key, "POST", `/v1/worlds/${w}/roles/ats/recreate`, { checkpoint: 0 })).status).toBe(200);
    const sealed = await as(a.key, "POST", "/v1/runs", { world: w, task: "task-0001", scenarios: [{ name: "initial_sync", epochs: { ats: [1] }, runs: [] }] });
    expect(sealed.status).toBe(201);
    const run = sealed.body.run as string;
    expect((await as(a.key, "POST", `/v1/runs/${run}/grade?reference=self`)).status).toBe(403);
    const graded = await as(a.key, "POST", `/v1/runs/${run}/grade`);
    expect(graded.status).toBe(200);
    expect(graded.body.score).toBe(0);
    expect((await as(a.key, "GET", `/v1/runs/${run}`)).body.verdict.score).toBe(0);
    for (const path of [`/v1/runs/${run}`, `/v1/runs/${run}/evidence`]) expect((await as(b.key, "GET", path)).status, path).toBe(404);
    expect((await as(b.key, "POST", `/v1/runs/${run}/grade`)).status).toBe(404);
  });

  it("cannot pass as the operator by sending the farm's principal header", async () => {
    const a = await participant("lab-forger");
    const w = (await admin("POST", "/v1/worlds", { task: "task-0001" })).body.world as string;
    const res = await farm("/v1/runs", {
      method: "POST",
      headers: { authorization: `Bearer ${a.key}`, "content-type": "application/json", "x-wirebench-principal": JSON.stringify({ kind: "admin" }) },
      body: JSON.stringify({ world: w, task: "task-0001", seed: 1, scenarios: [] }),
    });
    expect(res.status).toBe(404);
  });
});

describe("participant quotas", () => {
  it("refuse a world past the live limit with 429 and Retry-After, until one ends", async () => {
    const p = await participant("lab-live", { liveWorlds: 1, worldTtlS: 600 });
    const first = await as(p.key, "POST", "/v1/worlds", { task: "task-0004" });
    expect(first.status).toBe(201);
    const second = await as(p.key, "POST", "/v1/worlds", { task: "task-0004" });
    expect(second.status).toBe(429);
    expect(second.body.error).toMatch(/1 live worlds/);
    const retry = Number(second.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(500);
    expect(retry).toBeLessThanOrEqual(600);
    expect((await as(p.key, "DELETE", `/v1/worlds/${first.body.world}`)).status).toBe(200);
    expect((await as(p.key, "POST", "/v1/worlds", { task: "task-0004" })).status).toBe(201);
  });

  it("refuse a world past the daily limit with a Retry-After that reaches the next UTC day", async () => {
    const p = await participant("lab-daily", { worldsPerDay: 2, liveWorlds: 10 });
    for (let i = 0; i < 2; i++) {
      const made = await as(p.key, "POST", "/v1/worlds", { task: "task-0004" });
      expect(made.status).toBe(201);
      await as(p.key, "DELETE", `/v1/worlds/${made.body.world}`);
    }
    const refused = await as(p.key, "POST", "/v1/worlds", { task: "task-0004" });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/2 worlds per UTC day/);
    const retry = Number(refused.headers.get("retry-after"));
    const msToMidnight = 86_400_000 - (Date.now() % 86_400_000);
    expect(Math.abs(retry * 1000 - msToMidnight)).toBeLessThan(5_000);
  });

  it("cap a world's vendor requests, answering 429 with Retry-After, and log the refused ones", async () => {
    const p = await participant("lab-requests", { requestsPerWorld: 3, worldTtlS: 900 });
    const made = await as(p.key, "POST", "/v1/worlds", { task: "task-0004" });
    const role = made.body.vendors.ats;
    const url = `${rel(role.baseUrl)}/_health`;
    expect((await farm(url)).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await farm(`${rel(role.baseUrl)}/candidates`)).status);
    expect(statuses.slice(3)).toEqual([429, 429]);
    expect(statuses.slice(0, 3)).not.toContain(429);
    const last = await farm(`${rel(role.baseUrl)}/candidates`);
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(800);
    const log = await as(p.key, "GET", `/v1/worlds/${made.body.world}/roles/ats/requests`);
    expect(log.body.records).toHaveLength(6);
    expect(log.body.records.slice(3).map((r: { status: number }) => r.status)).toEqual([429, 429, 429]);
  });
});
