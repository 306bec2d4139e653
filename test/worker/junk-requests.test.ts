import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { admin, createWorld, farm, rel } from "./helpers.ts";

const segment = fc.oneof(
  fc.constantFrom("svc", "rest", "v1", "candidates", "notes", "oauth", "token", "login", "rpc", "createNote", "tombstones", "stage", "..", "%2e%2e", "_wb", "_docs", "cand_0001", "1001", "%00", "%ff"),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);
const junkRequest = fc.record({
  role: fc.constantFrom("a", "b", "c"),
  path: fc.array(segment, { minLength: 0, maxLength: 5 }).map((s) => `/${s.join("/")}`),
  query: fc.dictionary(fc.constantFrom("start", "count", "page", "per_page", "cursor", "limit", "modified_since", "since", "include_stage", "x"), fc.oneof(fc.string({ maxLength: 10 }), fc.integer().map(String))),
  method: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"),
  headers: fc.dictionary(fc.constantFrom("x-api-key", "x-sl-app-token", "x-sl-timestamp", "x-sl-signature", "x-tf-session", "authorization", "idempotency-key", "if-match", "content-type"), fc.string({ maxLength: 20 }).filter((s) => /^[\x20-\x7e]*$/.test(s))),
  body: fc.oneof(fc.constant(undefined), fc.string({ maxLength: 40 }), fc.json().map((j) => j)),
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
        const reachesVendor = vendorPath !== null && (vendorPath === "/" || vendorPath.startsWith("/")) && vendorPath !== "/_health" && !vendorPath.startsWith("/_wb") && vendorPath !== "/_docs" && !vendorPath.startsWith("/_docs/");
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
