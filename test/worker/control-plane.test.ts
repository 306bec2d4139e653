import { describe, expect, it } from "vitest";
import { admin, createWorld, farm } from "./helpers.ts";

describe("control plane", () => {
  it("refuses a missing or wrong admin token on every control route", async () => {
    for (const [method, path] of [
      ["GET", "/v1/vendors"],
      ["POST", "/v1/worlds"],
      ["GET", "/v1/worlds/w_0000000000000000"],
    ]) {
      expect((await farm(path, { method })).status).toBe(401);
      expect((await farm(path, { method, headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    }
  });

  it("creates a world with per-role URLs and credentials", async () => {
    const w = await createWorld({ ats: "staffline", hris: "hirewire" }, 5);
    expect(w.world).toMatch(/^r1-v-s5-[0-9a-f]{16}$/);
    expect(w.vendors.ats.baseUrl).toBe(`http://farm.test/w/${w.world}/ats`);
    expect(Object.keys(w.vendors.ats.credentials).sort()).toEqual(["app_token", "hmac_secret"]);
    expect(w.vendors.hris.env.HIREWIRE_API_KEY).toBe(w.vendors.hris.credentials.api_key);
    const status = await admin("GET", `/v1/worlds/${w.world}`);
    expect(status.status).toBe(200);
    expect(status.body.roles.ats).toMatchObject({ vendor: "staffline", checkpoint: 0, epoch: 0, stateHash: w.vendors.ats.stateHash });
  });

  it.each([
    [{}, /vendors|task/],
    [{ vendors: { ats: "nosuchvendor" } }, /unknown vendor "nosuchvendor"/],
    [{ vendors: { ats: "hirewire" }, seed: -1 }, /seed/],
    [{ vendors: { ats: "hirewire" }, checkpoint: 99 }, /checkpoints 0 to 3/],
    [{ vendors: { "Bad Role": "hirewire" } }, /vendors\.Bad Role/],
    [{ vendors: { ats: "hirewire" }, extra: 1 }, /extra|Unrecognized/i],
  ])("rejects a bad creation body %j with a 400 naming the problem", async (body, message) => {
    const res = await admin("POST", "/v1/worlds", body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  it("rejects a body that is not JSON", async () => {
    const res = await farm("/v1/worlds", { method: "POST", headers: { authorization: "Bearer test-admin-token" }, body: "{nope" });
    expect(res.status).toBe(400);
  });

  it("answers 404 for unknown worlds and roles", async () => {
    expect((await admin("GET", "/v1/worlds/w_ffffffffffffffff")).status).toBe(404);
    const w = await createWorld({ ats: "hirewire" });
    const res = await admin("POST", `/v1/worlds/${w.world}/roles/payroll/recreate`, { checkpoint: 0 });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/no role "payroll"/);
  });

  it("rejects a recreate to a checkpoint the vendor does not have, leaving state alone", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const bad = await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 7 });
    expect(bad.status).toBe(400);
    const status = await admin("GET", `/v1/worlds/${w.world}`);
    expect(status.body.roles.ats).toMatchObject({ checkpoint: 0, epoch: 0, stateHash: w.vendors.ats.stateHash });
  });
});
