import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ADMIN, admin, createWorld, farm, rel } from "./helpers.ts";

const segment = fc.oneof(
  fc.constantFrom("svc", "rest", "v1", "candidates", "notes", "oauth", "token", "login", "rpc", "createNote", "tombstones", "stage", "..", "%2e%2e", "_wb", "_docs", "cand_0001", "1001", "%00", "%ff"),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);
const junkRequest = fc.record({
  role: fc.constantFrom("a", "b", "c"),
  path: fc.array(segment, { minLength: 0, maxLength: 5 }).map((s) => `/${s.join("/")}`),
  query: fc.dictionary(
    fc.constantFrom("start", "count", "page", "per_page", "cursor", "limit", "modified_since", "since", "include_stage", "x"),
    fc.oneof(fc.string({ maxLength: 10 }), fc.integer().map(String)),
  ),
  method: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"),
  headers: fc.dictionary(
    fc.constantFrom("x-api-key", "x-sl-app-token", "x-sl-timestamp", "x-sl-signature", "x-tf-session", "authorization", "idempotency-key", "if-match", "content-type"),
    fc.string({ maxLength: 20 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
  ),
  body: fc.oneof(
    fc.constant(undefined),
    fc.string({ maxLength: 40 }),
    fc.json().map((j) => j),
  ),
});

describe("junk requests", () => {
  it("never get a 5xx from any vendor, and each is logged once", async () => {
    const w = await createWorld({ a: "staffline", b: "talentforge", c: "hirewire" }, 3);
    const expected: Record<string, number> = { a: 0, b: 0, c: 0 };
    await fc.assert(
      fc.asyncProperty(junkRequest, async (r) => {
        const url = `${rel(w.vendors[r.role].baseUrl)}${r.path}?${new URLSearchParams(r.query)}`;
        const hasBody = r.body !== undefined && r.method !== "GET" && r.method !== "HEAD";
        const res = await farm(url, { method: r.method, headers: r.headers, body: hasBody ? r.body : undefined });
        await res.arrayBuffer();
        const prefix = rel(w.vendors[r.role].baseUrl);
        const path = new URL(url, "http://farm.test").pathname;
        const vendorPath = path.startsWith(prefix) ? path.slice(prefix.length) || "/" : null;
        const reachesVendor =
          vendorPath !== null &&
          (vendorPath === "/" || vendorPath.startsWith("/")) &&
          vendorPath !== "/_health" &&
          !vendorPath.startsWith("/_wb") &&
          vendorPath !== "/_docs" &&
          !vendorPath.startsWith("/_docs/");
        if (reachesVendor) expected[r.role] += 1;
        expect(res.status, `${r.method} ${url}`).toBeLessThan(500);
      }),
      { numRuns: 250, seed: 20261130 },
    );
    const status = await admin("GET", `/v1/worlds/${w.world}`);
    for (const role of ["a", "b", "c"]) expect(status.body.roles[role].requests, role).toBe(expected[role]);
    expect(expected.a + expected.b + expected.c).toBeGreaterThan(150);
  });
});

const prototypeNames = ["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty", "prototype", "__defineGetter__"];
const junkValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53 + 1, 1e308, -1e308, "", "staffline", "hirewire", "task-0001", "w_0000000000000000", ...prototypeNames),
    fc.integer(),
    fc.string({ maxLength: 12 }),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(
        fc.constantFrom(...prototypeNames, "vendors", "seed", "scale", "checkpoint", "faults", "url", "relay", "responseCode", "scenarios", "epochs", "world", "task", "ats"),
        fc.string({ maxLength: 6 }),
      ),
      tie("value"),
      { maxKeys: 4 },
    ),
  ),
})).value;
const hugeArray = fc.constantFrom(
  Array.from({ length: 100_000 }, (_, i) => `f${i}`),
  Array.from({ length: 100_000 }, () => 0),
);
const controlBody = fc.oneof(
  junkValue,
  fc.record(
    {
      vendors: fc.dictionary(fc.oneof(fc.constantFrom(...prototypeNames), fc.string({ maxLength: 6 })), fc.constantFrom("hirewire", "staffline", "nope", ...prototypeNames), { maxKeys: 3 }),
      seed: junkValue,
      scale: fc.constantFrom(0, 1, 51, 1e9, -3, "2"),
      checkpoint: junkValue,
    },
    { requiredKeys: [] },
  ),
  fc.record({ checkpoint: fc.oneof(fc.integer(), junkValue), faults: fc.oneof(hugeArray, fc.array(fc.constantFrom(...prototypeNames, "hw-rate"), { maxLength: 3 })) }, { requiredKeys: [] }),
  fc.record(
    {
      world: junkValue,
      task: fc.constantFrom("task-0001", ...prototypeNames),
      seed: junkValue,
      scenarios: fc.oneof(
        hugeArray,
        fc.array(
          fc.record(
            {
              name: junkValue,
              epochs: fc.oneof(junkValue, fc.dictionary(fc.constantFrom(...prototypeNames, "ats"), fc.oneof(hugeArray, fc.array(fc.integer()))), fc.constant({ ats: [0, -1, 1e12] })),
              runs: junkValue,
              snapshots: junkValue,
            },
            { requiredKeys: [] },
          ),
          { maxLength: 2 },
        ),
      ),
    },
    { requiredKeys: [] },
  ),
  fc.record({ url: fc.oneof(junkValue, fc.constantFrom("http://127.0.0.1:1/x", "ftp://x", "javascript:alert(1)")), relay: junkValue, responseCode: junkValue, body: junkValue }, { requiredKeys: [] }),
);

describe("junk control-plane calls with a valid admin token", () => {
  it("never answer 500, whatever the path parameters, query and body", async () => {
    const w = (await admin("POST", "/v1/worlds", { task: "task-0001" })).body;
    const sealed = await admin("POST", "/v1/runs", { world: w.world, task: "task-0001", scenarios: [] });
    const param = fc.oneof(fc.constantFrom(w.world, "ats", sealed.body.run, "w_0000000000000000", "", "%00", "..", ...prototypeNames), fc.string({ maxLength: 8 })).map(encodeURIComponent);
    const route = fc.oneof(
      fc.tuple(fc.constant("POST"), fc.constant("/v1/worlds")),
      fc.tuple(
        fc.constant("GET"),
        param.map((x) => `/v1/worlds/${x}`),
      ),
      fc.tuple(
        fc.constantFrom("GET", "POST"),
        fc
          .tuple(
            fc.oneof({ arbitrary: fc.constant(w.world), weight: 3 }, param),
            fc.oneof({ arbitrary: fc.constantFrom("ats", ...prototypeNames), weight: 3 }, param),
            fc.constantFrom("recreate", "requests", "tokens", "webhooks", "webhook-target", "outbox", "records", "snapshots", "outbox/x/result"),
          )
          .map(([a, b, s]) => `/v1/worlds/${a}/roles/${b}/${s}`),
      ),
      fc.tuple(fc.constant("POST"), fc.constant("/v1/runs")),
      fc.tuple(
        fc.constantFrom("GET", "POST"),
        param.map((x) => `/v1/runs/${x}`),
      ),
      fc.tuple(
        fc.constant("POST"),
        param.map((x) => `/v1/runs/${x}/grade`),
      ),
    );
    const query = fc.oneof(fc.constant(""), fc.constantFrom("?epoch=-1", "?epoch=1e400", "?epoch=abc", "?epoch=99999999999999999999", "?epoch=0&epoch=1", "?reference=self", "?__proto__=1"));
    // Seal bodies aimed at the real world, so prototype names reach the role lookup.
    const sealBody = fc.record({
      world: fc.constant(w.world),
      task: fc.constant("task-0001"),
      scenarios: fc.array(
        fc.record({
          name: fc.constant("initial_sync"),
          epochs: fc.dictionary(fc.constantFrom(...prototypeNames, "ats"), fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 2 }), { minKeys: 1, maxKeys: 2 }),
          runs: fc.constant([]),
        }),
        { minLength: 1, maxLength: 2 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(route, query, fc.oneof(controlBody, sealBody), async ([method, path], q, body) => {
        const res = await farm(`${path}${q}`, { method, headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" }, body: method === "GET" ? undefined : JSON.stringify(body) });
        await res.arrayBuffer();
        expect(res.status, `${method} ${path}${q} ${JSON.stringify(body)?.slice(0, 200)}`).toBeLessThan(500);
      }),
      { numRuns: 300, seed: 20261201 },
    );
  });
});
