import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { DEV_ADMIN_TOKEN, isLoopbackHost } from "./dev-token.ts";
import { principalAuth } from "./index.ts";
import { keyHash, type Principal } from "./principal.ts";

const PARTICIPANT_KEY = "wbk_0123456789abcdef0123456789abcdef";
const quota = { worldsPerDay: 5, liveWorlds: 2, requestsPerWorld: 100, worldTtlS: 3600, submissionsPerDay: 10 };

function app(token: string | undefined, origin = "http://localhost", exposure?: string) {
  const a = new Hono<{ Bindings: { T?: string; E?: string }; Variables: { principal: Principal } }>();
  a.use(
    "*",
    principalAuth({
      adminToken: (env) => (env as { T?: string }).T,
      exposure: (env) => (env as { E?: string }).E,
      participant: async (_env, hash) => (hash === (await keyHash(PARTICIPANT_KEY)) ? { kind: "participant", id: "p_1", name: "lab", quota } : null),
    }),
  );
  a.get("/x", (c) => c.json(c.var.principal));
  return (headers: Record<string, string>) => a.request(`${origin}/x`, { headers }, { T: token, E: exposure });
}

describe("principalAuth", () => {
  it("tells the operator from a participant", async () => {
    expect(await (await app("s3cret")({ authorization: "Bearer s3cret" })).json()).toEqual({ kind: "admin" });
    expect(await (await app("s3cret")({ authorization: `Bearer ${PARTICIPANT_KEY}` })).json()).toEqual({ kind: "participant", id: "p_1", name: "lab", quota });
    const forged = await app("s3cret")({ authorization: `Bearer ${PARTICIPANT_KEY.slice(0, -1)}0` });
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { error: string }).error).toMatch(/participant key is not valid/);
  });

  it("lets the right bearer token through", async () => {
    const res = await app("s3cret")({ authorization: "Bearer s3cret" });
    expect(res.status).toBe(200);
  });

  it.each([
    ["no header", {}, /missing Authorization/],
    ["wrong scheme", { authorization: "Basic s3cret" }, /Bearer scheme/],
    ["wrong token", { authorization: "Bearer nope" }, /not valid/],
    ["token prefix only", { authorization: "Bearer s3cre" }, /not valid/],
  ])("answers 401 for %s", async (_name, headers, message) => {
    const res = await app("s3cret")(headers as Record<string, string>);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toMatch(message);
  });

  it("refuses everything when no token is configured", async () => {
    const res = await app(undefined)({ authorization: "Bearer anything" });
    expect(res.status).toBe(503);
  });

  describe("off loopback it fails closed", () => {
    const remote = "https://farm.wirebench.example";
    it("refuses the published development token with 503, even when it is sent", async () => {
      const res = await app(DEV_ADMIN_TOKEN, remote)({ authorization: `Bearer ${DEV_ADMIN_TOKEN}` });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: string }).error).toMatch(/development token/);
    });
    it("refuses every call when no token is set, naming the secret to set", async () => {
      const res = await app(undefined, remote)({ authorization: "Bearer anything" });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: string }).error).toMatch(/wrangler secret put WIREBENCH_ADMIN_TOKEN/);
    });
    it("opens with a real secret", async () => {
      expect((await app("a-real-secret", remote)({ authorization: "Bearer a-real-secret" })).status).toBe(200);
      expect((await app("a-real-secret", remote)({ authorization: `Bearer ${DEV_ADMIN_TOKEN}` })).status).toBe(401);
    });
    it("accepts the development token on loopback addresses only", async () => {
      for (const origin of ["http://127.0.0.1:8787", "http://127.0.0.2:9000", "http://[::1]:8787", "http://localhost"]) {
        expect((await app(DEV_ADMIN_TOKEN, origin)({ authorization: `Bearer ${DEV_ADMIN_TOKEN}` })).status, origin).toBe(200);
      }
      expect(isLoopbackHost("127.0.0.1.example.com")).toBe(false);
      expect(isLoopbackHost("10.0.0.1")).toBe(false);
    });
    it("refuses it on a farm deployed as public, whatever Host says", async () => {
      for (const origin of ["http://127.0.0.1:8787", "http://localhost", "http://[::1]"]) {
        const res = await app(DEV_ADMIN_TOKEN, origin, "public")({ authorization: `Bearer ${DEV_ADMIN_TOKEN}` });
        expect(res.status, origin).toBe(503);
        expect(((await res.json()) as { error: string }).error).toMatch(/development token/);
        expect((await app(undefined, origin, "public")({ authorization: "Bearer x" })).status, origin).toBe(503);
      }
      expect((await app("a-real-secret", "http://127.0.0.1", "public")({ authorization: "Bearer a-real-secret" })).status).toBe(200);
    });
    it("refuses it when the client's address (cf-connecting-ip, which the edge sets) is off loopback, whatever Host says", async () => {
      const res = await app(DEV_ADMIN_TOKEN, "http://127.0.0.1:8787")({ authorization: `Bearer ${DEV_ADMIN_TOKEN}`, "cf-connecting-ip": "203.0.113.9" });
      expect(res.status).toBe(503);
      expect((await app(DEV_ADMIN_TOKEN, "http://127.0.0.1:8787")({ authorization: `Bearer ${DEV_ADMIN_TOKEN}`, "cf-connecting-ip": "127.0.0.1" })).status).toBe(200);
    });
  });
});
