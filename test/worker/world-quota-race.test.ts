/**
 * World quotas are reserved atomically: concurrent creates by one participant
 * yield at most its limits, however many arrive at once.
 */
import { describe, expect, it } from "vitest";
import { admin, as, participant } from "./helpers.ts";

describe("world quotas under concurrent creates", () => {
  it("60 at once with liveWorlds 1 make one world; the others get 429", { timeout: 120_000 }, async () => {
    const p = await participant("racer-live", { liveWorlds: 1, worldsPerDay: 5 });
    const answers = await Promise.all(Array.from({ length: 60 }, () => as(p.key, "POST", "/v1/worlds", { task: "task-0004" })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(59);
    const made = answers.find((a) => a.status === 201)!.body.world as string;
    expect((await admin("GET", `/v1/worlds/${made}`)).body.status).toBe("ready");
  });

  it("12 at once with worldsPerDay 5 make five worlds", { timeout: 120_000 }, async () => {
    const p = await participant("racer-daily", { liveWorlds: 100, worldsPerDay: 5 });
    const statuses = (await Promise.all(Array.from({ length: 12 }, () => as(p.key, "POST", "/v1/worlds", { task: "task-0004" })))).map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    const after = await as(p.key, "POST", "/v1/worlds", { task: "task-0004" });
    expect(after.status).toBe(429);
    expect(after.body.error).toMatch(/5 worlds per UTC day/);
  });
});
