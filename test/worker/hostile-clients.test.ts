import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, createWorld, farm, ORIGIN, rel } from "./helpers.ts";

const deepJson = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function requestLog(world: string, role: string, epoch = 0) {
  const res = await admin("GET", `/v1/worlds/${world}/roles/${role}/requests?epoch=${epoch}`);
  expect(res.status).toBe(200);
  return res.body.records as any[];
}

/** Seals a task world's epoch 1 (its one recreate) and grades it: both must answer, whatever the log holds. */
async function sealAndGrade(world: string, role: string) {
  const sealed = await admin("POST", "/v1/runs", { world, task: "task-0001", scenarios: [{ name: "initial_sync", epochs: { [role]: [1] }, runs: [] }] });
  expect(sealed.status, JSON.stringify(sealed.body)).toBe(201);
  const graded = await admin("POST", `/v1/runs/${sealed.body.run}/grade`);
  expect(graded.status, JSON.stringify(graded.body).slice(0, 300)).toBe(200);
  return graded.body;
}

describe("a client cannot break the request log", () => {
  it("logs a 3,000-level JSON body as text, and the epoch still reads, seals and grades", async () => {
    const w = (await admin("POST", "/v1/worlds", { task: "task-0001" })).body;
    expect((await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 0 })).status).toBe(200);
    const base = rel(w.vendors.ats.baseUrl);
    for (const levels of [3_000, 100_000]) {
      const res = await farm(`${base}/svc/anything`, { method: "POST", headers: { "content-type": "application/json" }, body: deepJson(levels) });
      expect(res.status).toBeLessThan(500);
      await res.arrayBuffer();
    }
    const rows = await requestLog(w.world, "ats", 1);
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r.bodyNote).toBe("too_deep");
      expect(typeof r.body).toBe("string");
    }
    expect(rows[0].bodyBytes).toBe(deepJson(3_000).length);
    const verdict = await sealAndGrade(w.world, "ats");
    // The conduct checks judged the traffic: the hard gates ran over both requests.
    expect(verdict.checks.l2.map((c: { name: string }) => c.name)).toContain("no_credentials_in_query_string");
    expect(verdict.error?.class ?? null).not.toBe("benchmark_infrastructure_failure");
  });

  it("keeps one row per request when bodies are over the limit, answering them 413", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const base = rel(w.vendors.ats.baseUrl);
    const big = new Uint8Array(9 * 1024 * 1024).fill(0x61);
    const sends: Promise<Response>[] = [];
    for (let i = 0; i < 60; i++) {
      if (i % 20 === 5) sends.push(farm(`${base}/v1/candidates`, { method: "POST", headers: { "content-type": "application/json" }, body: big }));
      else sends.push(farm(`${base}/v1/candidates?page=${i}`, { headers: { "x-api-key": w.vendors.ats.credentials.api_key } }));
    }
    const answers = await Promise.all(sends);
    for (const a of answers) await a.arrayBuffer();
    expect(answers.filter((a) => a.status === 413)).toHaveLength(3);
    const rows = await requestLog(w.world, "ats");
    expect(rows).toHaveLength(60);
    expect(rows.map((r) => r.seq)).toEqual([...rows.map((r) => r.seq)].sort((a, b) => a - b));
    const large = rows.filter((r) => r.bodyBytes > 0);
    expect(large).toHaveLength(3);
    const digest = await sha256Hex(big);
    for (const r of large) {
      expect(r).toMatchObject({ status: 413, bodyBytes: big.byteLength, bodyNote: "truncated", bodySha256: digest });
      expect(r.body.length).toBeLessThanOrEqual(256 * 1024);
    }
    expect(rows.filter((r) => r.method === "GET")).toHaveLength(57);
  });

  it("names a secret that a cut-off body or query value carried, so leak checks still see it", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const key = w.vendors.ats.credentials.api_key;
    const base = rel(w.vendors.ats.baseUrl);
    const padded = `${"x".repeat(2 * 1024 * 1024)}${key}`;
    await (await farm(`${base}/v1/candidates`, { method: "POST", body: padded })).arrayBuffer();
    await (await farm(`${base}/v1/candidates?${"q".repeat(10)}=${"y".repeat(70_000)}${key}`, { headers: { "x-api-key": key } })).arrayBuffer();
    const rows = await requestLog(w.world, "ats");
    expect(rows[0].bodyNote).toBe("truncated");
    expect(rows[0].body).toContain(key);
    expect(Object.values(rows[1].query).join("")).toContain(key);
  });

  it("logs bodies that are not UTF-8 as decoded text with their digest", async () => {
    const w = await createWorld({ ats: "talentforge" });
    const bytes = new Uint8Array([0xff, 0xfe, 0x00, 0x41, 0xc3, 0x28]);
    await (await farm(`${rel(w.vendors.ats.baseUrl)}/rest/candidates`, { method: "POST", headers: { "content-type": "application/json" }, body: bytes })).arrayBuffer();
    const [row] = await requestLog(w.world, "ats");
    expect(row).toMatchObject({ bodyNote: "not_utf8", bodyBytes: 6, bodySha256: await sha256Hex(bytes) });
  });
});

describe("the control plane looks roles up as own properties", () => {
  const names = ["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf"];
  it.each(names)("answers 404 for role %s on every role route, and 400 as a key of epochs", async (name) => {
    const w = (await admin("POST", "/v1/worlds", { task: "task-0001" })).body;
    const role = encodeURIComponent(name);
    for (const [method, suffix, body] of [
      ["GET", "requests"],
      ["GET", "tokens"],
      ["GET", "webhooks"],
      ["GET", "records"],
      ["GET", "outbox"],
      ["POST", "recreate", { checkpoint: 0 }],
      ["POST", "webhook-target", { url: null }],
      ["POST", "outbox/x/result", { responseCode: 200 }],
    ] as [string, string, unknown?][]) {
      const res = await admin(method, `/v1/worlds/${w.world}/roles/${role}/${suffix}`, body);
      expect(res.status, `${method} ${suffix}`).toBe(404);
    }
    const sealed = await farm("/v1/runs", {
      method: "POST",
      headers: { authorization: "Bearer test-admin-token", "content-type": "application/json" },
      body: `{"world":"${w.world}","task":"task-0001","scenarios":[{"name":"initial_sync","epochs":{"${name}":[1]},"runs":[]}]}`,
    });
    expect(sealed.status).toBe(400);
  });
});

describe("base URLs come from the farm, not from the client's Host", () => {
  it("renders docs and Link headers for the origin the world was made at, and caches one docs set", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const base = rel(w.vendors.ats.baseUrl);
    const viaEvil = (path: string, init: RequestInit = {}) => (exports as unknown as { default: Fetcher }).default.fetch(new Request(`http://evil.test${path}`, init));
    const list = await viaEvil(`${base}/v1/candidates?per_page=5`, { headers: { "x-api-key": w.vendors.ats.credentials.api_key } });
    expect(list.status).toBe(200);
    expect(list.headers.get("link")).toContain(`${ORIGIN}${base}`);
    expect(list.headers.get("link")).not.toContain("evil.test");
    const openapi = (await (await viaEvil(`${base}/_docs/openapi.json`)).json()) as any;
    expect(JSON.stringify(openapi.servers)).toContain(`${ORIGIN}${base}`);
    expect(JSON.stringify(openapi)).not.toContain("evil.test");
    const page = await (await viaEvil(`${base}/_docs/index.html`)).text();
    expect(page).not.toContain("evil.test");
  });
});

describe("made-up world ids", () => {
  it("answer 404 and leave the object without storage", async () => {
    const id = "w_0123456789abcdef";
    for (const path of ["/x", "/svc/candidates"]) expect((await farm(`/w/${id}/ats${path}`, { method: "POST", body: "{}" })).status).toBe(404);
    expect((await farm(`/w/${id}/ats/_docs/`)).status).toBe(404);
    const stub = env.WORLD.get(env.WORLD.idFromName(`${id}/ats`));
    const tables = await runInDurableObject(stub, (_obj, state) => state.storage.sql.exec("SELECT count(*) AS n FROM sqlite_master").one().n);
    expect(tables).toBe(0);
  });
});

describe("methods", () => {
  it.each(["PROPFIND", "MKCOL", "LOCK", "TRACE", "OPTIONS", "PATCH"])("%s gets the vendor's own 404/405 shape and a log row", async (method) => {
    const w = await createWorld({ ats: "talentforge" });
    const base = rel(w.vendors.ats.baseUrl);
    const listed = await farm(`${base}/rest/candidates`, { method });
    const unknown = await farm(`${base}/nowhere`, { method });
    expect([405, 404]).toContain(listed.status);
    expect(unknown.status).toBe(404);
    const reference = await farm(`${base}/nowhere`);
    expect(Object.keys((await unknown.json()) as object)).toEqual(Object.keys((await reference.json()) as object));
    await listed.arrayBuffer();
    expect(await requestLog(w.world, "ats")).toHaveLength(3);
  });
});

describe("bounds on one world", () => {
  it("refuses more roles than a world may have, naming the limit", async () => {
    const vendors = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`r${i}`, "hirewire"]));
    const res = await admin("POST", "/v1/worlds", { vendors });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/at most 8 roles/);
  });

  it("refuses a world that would seed more records than the farm allows, before building any", async () => {
    const res = await admin("POST", "/v1/worlds", { vendors: { a: "talentforge", b: "talentforge" }, scale: 50 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/at most 150000/);
  });
});
