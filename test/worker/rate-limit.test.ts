import { describe, expect, it } from "vitest";
import hirewire from "../../declarations/vendors/hirewire.ts";
import { hirewireClient, stafflineClient } from "./clients.ts";
import globalhire from "../../declarations/vendors/globalhire.ts";
import { admin, advanceClock, createWorld, farm, rel } from "./helpers.ts";

describe("counted rate-limit windows (hirewire: 120 requests, Retry-After as an HTTP date)", () => {
  it("refuses exactly the request after the quota and logs the refusal", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const hw = hirewireClient(w.vendors.ats);
    const limit = hirewire.rateLimit!.limit;
    let last: Awaited<ReturnType<typeof hw>> | undefined;
    for (let i = 0; i < limit; i++) {
      last = await hw("/v1/audit-events?per_page=1");
      expect(last!.status).toBe(200);
    }
    expect(last!.headers.get("x-ratelimit-remaining")).toBe("0");
    const refused = await hw("/v1/audit-events?per_page=1");
    expect(refused.status).toBe(429);
    const retryAt = Date.parse(refused.headers.get("retry-after")!);
    expect(Number.isNaN(retryAt)).toBe(false);
    expect(refused.body).toMatchObject({ error: "rate_limited" });
    const log = await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests`);
    const row = log.body.records.at(-1);
    expect(row).toMatchObject({ status: 429, rateLimited: true });
    expect(row.retryAfter).toBeGreaterThanOrEqual(1);
    expect(log.body.records.filter((r: any) => r.rateLimited)).toHaveLength(1);
  });

  it("tells the truth in its quota headers: a client that waits out X-RateLimit-Reset when none remain is not refused", async () => {
    const w = await createWorld({ ats: "globalhire" });
    const key = w.vendors.ats.credentials;
    const gh = (path: string) => farm(`${rel(w.vendors.ats.baseUrl)}${path}`, { headers: { "x-gh-api-key": key.api_key } });
    const limit = globalhire.rateLimit!.limit;
    let last: Response | undefined;
    for (let i = 0; i < limit; i++) {
      last = await gh("/v2/agencies?limit=1");
      expect(last.status).toBe(200);
      await last.arrayBuffer();
    }
    expect(last!.headers.get("x-ratelimit-remaining")).toBe("0");
    const resetS = Number(last!.headers.get("x-ratelimit-reset"));
    expect(resetS).toBe(globalhire.rateLimit!.cooldownS);
    await advanceClock(w.world, "ats", resetS * 1000);
    const paced = await gh("/v2/agencies?limit=1");
    expect(paced.status).toBe(200);
    expect(paced.headers.get("x-ratelimit-remaining")).toBe(String(limit - 1));
    const log = await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests`);
    expect(log.body.records.filter((r: any) => r.rateLimited)).toHaveLength(0);
  });

  it("starts every epoch with a fresh quota", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const hw = hirewireClient(w.vendors.ats);
    for (let i = 0; i <= hirewire.rateLimit!.limit; i++) await hw("/v1/audit-events?per_page=1");
    expect((await hw("/v1/audit-events")).status).toBe(429);
    await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 0 });
    expect((await hw("/v1/audit-events")).status).toBe(200);
  });
});

describe("retry hint only in the body (staffline)", () => {
  it("sends no Retry-After header and puts the wait in the error body", async () => {
    const w = await createWorld({ ats: "staffline" });
    const sl = stafflineClient(w.vendors.ats);
    for (let i = 0; i < 300; i++) expect((await sl("/svc/jobs?count=1")).status).toBe(200);
    const refused = await sl("/svc/jobs?count=1");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBeNull();
    expect(refused.body.retry_after_seconds).toBeGreaterThanOrEqual(1);
    const log = await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests`);
    expect(log.body.records.at(-1)).toMatchObject({ rateLimited: true, retryAfter: refused.body.retry_after_seconds });
  });
});
