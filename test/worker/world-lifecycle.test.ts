/**
 * Worlds end: on expiry the alarm deletes each role's storage and the archive
 * marks the world expired; DELETE ends one at once. Sealed runs stay.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { admin, advanceClock, farm, rel, roleObject as stubOf } from "./helpers.ts";

const tables = (world: string, role: string) =>
  runInDurableObject(stubOf(world, role), (_o, state) => state.storage.sql.exec("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").one().n as number);

describe("world lifecycles", () => {
  it("expire on the alarm: storage deleted, archive marked, vendor gone, sealed runs kept", async () => {
    const made = await admin("POST", "/v1/worlds", { task: "task-0001", ttlSeconds: 3_600 });
    expect(made.status).toBe(201);
    const w = made.body.world as string;
    const expiresAt = Date.parse(made.body.expiresAt);
    expect(Math.abs(expiresAt - Date.now() - 3_600_000)).toBeLessThan(10_000);
    expect((await admin("POST", `/v1/worlds/${w}/roles/ats/recreate`, { checkpoint: 0 })).status).toBe(200);
    const sealed = await admin("POST", "/v1/runs", { world: w, task: "task-0001", scenarios: [{ name: "initial_sync", epochs: { ats: [1] }, runs: [] }] });
    expect(sealed.status).toBe(201);
    // A recreate starts a new timeline; the world's expiry stays on the schedule.
    expect((await admin("POST", `/v1/worlds/${w}/roles/ats/recreate`, { checkpoint: 1 })).status).toBe(200);
    expect(await tables(w, "ats")).toBeGreaterThan(0);
    // Forcing the alarm early applies no expiry; once the lifetime is over on the role's clock it does.
    await runDurableObjectAlarm(stubOf(w, "ats"));
    expect(await tables(w, "ats")).toBeGreaterThan(0);
    await advanceClock(w, "ats", 3_600_000);
    await runDurableObjectAlarm(stubOf(w, "ats"));
    expect(await tables(w, "ats")).toBe(0);
    const after = await admin("GET", `/v1/worlds/${w}`);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ world: w, status: "expired", roles: {} });
    expect(after.body.endedAt).toEqual(expect.any(String));
    expect((await farm(`${rel(made.body.vendors.ats.baseUrl)}/candidates`)).status).toBe(404);
    const logs = await admin("GET", `/v1/worlds/${w}/roles/ats/requests`);
    expect(logs.status).toBe(410);
    expect(logs.body.error).toMatch(/has ended \(expired\)/);
    expect((await admin("GET", `/v1/runs/${sealed.body.run}`)).status).toBe(200);
    expect((await admin("POST", "/v1/runs", { world: w, task: "task-0001", seed: 1, scenarios: [] })).status).toBe(410);
  });

  it("end at once on DELETE, every role; a second DELETE answers 410", async () => {
    const made = await admin("POST", "/v1/worlds", { vendors: { ats: "staffline", hris: "hirewire" } });
    const w = made.body.world as string;
    const del = await admin("DELETE", `/v1/worlds/${w}`);
    expect(del).toMatchObject({ status: 200, body: { world: w, status: "deleted" } });
    expect(await tables(w, "ats")).toBe(0);
    expect(await tables(w, "hris")).toBe(0);
    expect((await admin("GET", `/v1/worlds/${w}`)).body.status).toBe("deleted");
    expect((await admin("DELETE", `/v1/worlds/${w}`)).status).toBe(410);
    expect((await farm(`${rel(made.body.vendors.hris.baseUrl)}/employees`)).status).toBe(404);
  });

  it("default to 24 hours", async () => {
    const made = await admin("POST", "/v1/worlds", { vendors: { ats: "hirewire" } });
    expect(Math.abs(Date.parse(made.body.expiresAt) - Date.now() - 86_400_000)).toBeLessThan(10_000);
  });
});
