/**
 * Whatever bytes a path carries (malformed percent-escapes, escaped bytes
 * that are not UTF-8, dot segments), an authenticated request to any vendor
 * in a world with no armed fault never gets a 5xx, and every request that
 * reaches the vendor is logged exactly once. Property-based, with a fixed
 * seed, on a real local farm: the documented routes with random bytes in
 * their parameters, and random paths.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VENDORS } from "../../declarations/vendors/index.ts";
import type { LocalFarm } from "../../scripts/farm/local-farm.ts";
import { documentedClient } from "../../scripts/contract/openapi-contract.ts";
import { control, startFarm } from "./farm.ts";

let farm: LocalFarm;

beforeAll(async () => {
  farm = await startFarm();
});

afterAll(async () => {
  await farm?.stop();
});

/** Characters a path may carry as they are; `%` among them, so escapes come out malformed as often as not. */
const RAW = /[A-Za-z0-9\-._~!$&'()*+,;=:@%]/;

/** A path segment from raw bytes: printable path characters as they are, every other byte percent-escaped. */
const byteSegment = fc
  .uint8Array({ minLength: 1, maxLength: 10 })
  .map((bytes) => Array.from(bytes, (b) => (RAW.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, "0").toUpperCase()}`)).join(""));
/** Segments of dots alone are left out: the URL parser resolves them, and two could climb out of the vendor's root. */
const segment = fc
  .oneof(fc.constantFrom("%zz", "%", "%E0%A4%A", "%ff", "%C0%AF", "%00", "%2F", "%25", "%%", "a%2", "%u0041"), byteSegment)
  .filter((s) => !s.startsWith("_") && !/^(\.|%2e)+$/i.test(s));
const method = fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS");

describe.each(Object.keys(VENDORS))("random path bytes on %s", (vendor) => {
  it("never answer 5xx without an armed fault, and each request is logged once", { timeout: 120_000 }, async () => {
    const w = await control(farm, "POST", "/v1/worlds", { vendors: { ats: vendor }, seed: 4, rateLimits: false });
    const ats = w.vendors.ats;
    const doc = (await (await fetch(`${ats.baseUrl}/_docs/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId?: string; security?: object[] }>> };
    const authed = Object.values(doc.paths)
      .flatMap((item) => Object.values(item))
      .find((op) => op.operationId && Object.keys((op.security ?? [{}])[0] ?? {}).length > 0);
    expect(authed, "an operation that carries credentials").toBeTruthy();
    const hooks = VENDORS[vendor].webhooks;
    const templates = [
      ...Object.keys(doc.paths),
      ...(hooks?.subscriptionPath ? [hooks.subscriptionPath] : []),
      ...(hooks?.ack ? [hooks.ack.deadLetterPath] : []),
      ...(hooks?.testDelivery ? [hooks.testDelivery.path] : []),
    ];
    const request = fc.record({
      method,
      path: fc.oneof(
        fc.tuple(fc.constantFrom(...templates), fc.array(segment, { minLength: 3, maxLength: 3 })).map(([t, s]) => {
          let i = 0;
          return t.replace(/\{[^}]+\}|:[A-Za-z]+/g, () => s[i++ % s.length]);
        }),
        fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/${s.join("/")}`),
      ),
      body: fc.constantFrom(undefined, "{}", '{"name":"x"}', "not json"),
    });
    const client = documentedClient({ baseUrl: ats.baseUrl, credentials: ats.credentials, doc });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const hasBody = r.body !== undefined && r.method !== "GET" && r.method !== "HEAD";
        const res = await client.sendWithAuthOf(authed!.operationId!, r.method, r.path, hasBody ? { text: { body: r.body!, contentType: "application/json" } } : {});
        expect(res.status, `${r.method} ${r.path}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      }),
      { numRuns: 150, seed: 20261201 },
    );
    const status = await control(farm, "GET", `/v1/worlds/${w.world}`);
    expect(status.roles.ats.requests).toBe(client.calls.length);
    expect(client.calls.length).toBeGreaterThanOrEqual(150);
  });
});
