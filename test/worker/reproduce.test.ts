/**
 * Seeded world URLs: an id names release, task and seed; `{reproduce}` seeds a
 * fresh world whose state equals the original's at creation, and refuses a
 * world of another release, naming both.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, as, participant } from "./helpers.ts";

describe("reproducing a world", () => {
  it("from its id or any URL of it gives the same release, task, seed, checkpoints and state hash", async () => {
    const original = await admin("POST", "/v1/worlds", { task: "task-0007", seed: 9 });
    expect(original.body.world).toMatch(/^r1-t0007-s9-[0-9a-f]{16}$/);
    // Change the original after creation: reproduction gives its starting state, not its present one.
    await admin("POST", `/v1/worlds/${original.body.world}/roles/ats/recreate`, { checkpoint: 2 });
    for (const ref of [original.body.world, `${original.body.vendors.ats.baseUrl}/candidates?limit=5`, `http://farm.test/v1/worlds/${original.body.world}`]) {
      const copy = await admin("POST", "/v1/worlds", { reproduce: ref });
      expect(copy.status, ref).toBe(201);
      expect(copy.body.world).not.toBe(original.body.world);
      expect(copy.body).toMatchObject({ task: "task-0007", seed: 9, release: original.body.release });
      expect(copy.body.vendors.ats.stateHash).toBe(original.body.vendors.ats.stateHash);
      const status = await admin("GET", `/v1/worlds/${copy.body.world}`);
      expect(status.body.roles.ats.checkpoint).toBe(0);
    }
    const info = await admin("GET", `/v1/worlds/${original.body.world}`);
    expect(info.body.release).toEqual({ id: "r1", declarationHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it("reproduces bare vendor worlds with their checkpoint, scale and docs profile", async () => {
    const original = await admin("POST", "/v1/worlds", { vendors: { ats: "globalhire" }, seed: 3, checkpoint: 2, scale: 2, docsProfile: "stale" });
    const copy = await admin("POST", "/v1/worlds", { reproduce: original.body.world });
    expect(copy.body.vendors.ats.stateHash).toBe(original.body.vendors.ats.stateHash);
    expect((await admin("GET", `/v1/worlds/${copy.body.world}`)).body.roles.ats).toMatchObject({ checkpoint: 2 });
  });

  it("refuses a world of another release with 409 naming both", async () => {
    const original = await admin("POST", "/v1/worlds", { task: "task-0001" });
    // Rewrite the archive as a farm of an older release would have left it.
    await env.TEST_DB.prepare("UPDATE worlds SET release = 'r0', declaration_hash = 'abc123' WHERE id = ?").bind(original.body.world).run();
    const res = await admin("POST", "/v1/worlds", { reproduce: original.body.world });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/seeded by release r0 .*this farm serves release r1/);
    expect(res.body.world).toEqual({ release: "r0", declarationHash: "abc123" });
  });

  it("names what is wrong with a bad reference, and keeps participants to their own worlds", async () => {
    expect((await admin("POST", "/v1/worlds", { reproduce: "https://farm.test/somewhere" })).body.error).toMatch(/names no world/);
    expect((await admin("POST", "/v1/worlds", { reproduce: "r1-t0001-s1-0000000000000000" })).status).toBe(404);
    const p = await participant("lab-repro");
    const mine = await as(p.key, "POST", "/v1/worlds", { task: "task-0004" });
    expect((await as(p.key, "POST", "/v1/worlds", { reproduce: mine.body.world })).status).toBe(201);
    const theirs = await admin("POST", "/v1/worlds", { task: "task-0004" });
    expect((await as(p.key, "POST", "/v1/worlds", { reproduce: theirs.body.world })).status).toBe(404);
  });
});
