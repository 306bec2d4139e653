import { runInDurableObject } from "cloudflare:test";
import { toVendorCall } from "../../workers/surface/vendor-call.ts";
import { answerResponse } from "../../workers/surface/vendor-answer.ts";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parseVendor } from "../../declarations/schema/define.ts";
import hirewire from "../../declarations/vendors/hirewire.ts";
import { buildState } from "../../workers/engine/data/generate.ts";
import { VendorEngine } from "../../workers/engine/vendor-engine.ts";
import { migrateWorld } from "../../workers/world/schema.ts";

/** HireWire re-declared with a legacy username/password login that sets a session cookie. */
const cookieVendor = parseVendor({
  ...hirewire,
  id: "cookiejar",
  auth: {
    credentials: [
      { name: "username", prefix: "user_", secret: false, description: "Login name." },
      { name: "password", prefix: "pw_", secret: true, description: "Password." },
    ],
    mints: [{ kind: "login", path: "/session", username: "username", password: "password", issues: "session", cookie: "JSESSIONID", ttlS: 1200 }],
    present: [{ kind: "cookie", name: "JSESSIONID", value: { token: "session" } }],
  },
});

/** An engine over a Durable Object's storage for an inline declaration, seeded, with the login credentials. */
function inlineEngine(vendor: typeof cookieVendor, sql: SqlStorage, world: string): VendorEngine {
  migrateWorld(sql);
  const config = {
    world,
    role: "ats",
    vendor: vendor.id,
    seed: 1,
    task: null,
    checkpoint: 0,
    epoch: 0,
    epochStartSeq: 0,
    scale: 1,
    rateLimits: true,
    docsProfile: "true" as const,
    armedFaults: [],
    webhookTarget: null,
    relay: false,
    credentials: { username: "user_a", password: "pw_b" },
  };
  const engine = new VendorEngine(vendor, sql, config);
  engine.records.replaceAll(buildState(vendor, 1, 0));
  return engine;
}

describe("session login returning a cookie (engine, inline declaration)", () => {
  it("logs in, serves data with the cookie, and refuses a missing or forged cookie", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("inline/cookie"));
    await runInDurableObject(stub, async (_obj, state) => {
      const engine = inlineEngine(cookieVendor, state.storage.sql, "w_inline");
      const call = async (path: string, init: RequestInit = {}) => answerResponse(await engine.serve(await toVendorCall(new Request(`http://x${path}`, init), path), "http://x"));

      const bad = await call("/session", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "user_a", password: "nope" }) });
      expect(bad.status).toBe(401);
      const login = await call("/session", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "user_a", password: "pw_b" }) });
      expect(login.status).toBe(200);
      const cookie = login.headers.get("set-cookie")!;
      expect(cookie).toMatch(/^JSESSIONID=ss_[0-9a-f]+; Path=\/; HttpOnly; Max-Age=1200$/);
      const session = cookie.split(";")[0];

      expect((await call("/v1/candidates", { headers: { cookie: `theme=dark; ${session}` } })).status).toBe(200);
      expect((await call("/v1/candidates")).status).toBe(401);
      expect((await call("/v1/candidates", { headers: { cookie: "JSESSIONID=ss_forged" } })).status).toBe(401);

      const log = engine.logs.requests();
      expect(log.map((r) => r.authOutcome)).toEqual(["invalid", "ok", "ok", "missing", "invalid"]);
      expect(log[2].headers.cookie).toBe("[redacted]");
      expect(engine.logs.tokens().map((t) => t.kind)).toEqual(["session_cookie"]);
    });
  });
});

/** The same login, with a CSRF token the login hands out and writes must send. */
const csrfVendor = parseVendor({
  ...hirewire,
  id: "csrfjar",
  auth: {
    credentials: [
      { name: "username", prefix: "user_", secret: false, description: "Login name." },
      { name: "password", prefix: "pw_", secret: true, description: "Password." },
    ],
    mints: [{ kind: "login", path: "/session", username: "username", password: "password", issues: "session", cookie: "SID", ttlS: 600, csrfField: "csrf_token" }],
    present: [{ kind: "cookie", name: "SID", value: { token: "session" }, csrf: { header: "X-CSRF-Token" } }],
  },
});

describe("cookie sessions with a CSRF token (engine, inline declaration)", () => {
  it("reads with the cookie alone, refuses writes without the session's CSRF token or with another session's, and redacts it", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("inline/csrf"));
    await runInDurableObject(stub, async (_obj, state) => {
      const engine = inlineEngine(csrfVendor, state.storage.sql, "w_inline_csrf");
      const call = async (path: string, init: RequestInit = {}) => answerResponse(await engine.serve(await toVendorCall(new Request(`http://x${path}`, init), path), "http://x"));
      const login = async () => {
        const res = await call("/session", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "user_a", password: "pw_b" }) });
        return { cookie: res.headers.get("set-cookie")!.split(";")[0], csrf: ((await res.json()) as { csrf_token: string }).csrf_token };
      };
      const a = await login();
      const b = await login();
      expect(a.csrf).toMatch(/^csrf_/);
      expect(a.csrf).not.toBe(b.csrf);
      const move = (headers: Record<string, string>) =>
        call("/v1/candidates/1001/stage", { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ stage: "rejected" }) });

      expect((await call("/v1/candidates/1001", { headers: { cookie: a.cookie } })).status).toBe(200);
      const missing = await move({ cookie: a.cookie });
      expect(missing.status).toBe(401);
      expect(await missing.text()).toMatch(/csrf_token_missing/);
      const foreign = await move({ cookie: a.cookie, "x-csrf-token": b.csrf });
      expect(foreign.status).toBe(401);
      expect(await foreign.text()).toMatch(/csrf_token_invalid/);
      expect((await move({ cookie: a.cookie, "x-csrf-token": a.csrf })).status).toBe(200);

      const log = engine.logs.requests();
      expect(log.map((r) => r.status)).toEqual([200, 200, 200, 401, 401, 200]);
      expect(log.at(-1)!.headers["x-csrf-token"]).toBe("[redacted]");
    });
  });
});
