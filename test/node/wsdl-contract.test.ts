import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VENDORS } from "../../declarations/vendors/index.ts";
import { gatewayStyle } from "../../mechanics/gateways/index.ts";
import { deleteStyle } from "../../mechanics/deletes/index.ts";
import type { LocalFarm } from "../../scripts/farm/local-farm.ts";
import { crawlWsdl } from "../../scripts/contract/wsdl-contract.ts";
import { control, startFarm } from "./farm.ts";

let farm: LocalFarm;

beforeAll(async () => {
  farm = await startFarm();
});

afterAll(async () => {
  await farm?.stop();
});

/** Vendors with a gateway that publishes a WSDL, and the WSDL's file name in their docs. */
const SOAP = Object.values(VENDORS).flatMap((v) =>
  v.gateways
    .filter((g) => gatewayStyle(g).description !== undefined)
    .map((g) => ({ vendor: v.id, file: `${g.service}.wsdl`, feed: g.operations.some((o) => o.action === "feed"), keepsDeleted: deleteStyle(v.deletes).listsDeleted })),
);

async function crawl(vendor: string, file: string, docsProfile: string, checkpoint = 0) {
  const created = await control(farm, "POST", "/v1/worlds", { vendors: { pay: vendor }, seed: 6, checkpoint, docsProfile, rateLimits: false });
  const role = created.vendors.pay;
  const wsdl = await (await fetch(`${role.baseUrl}/_docs/${file}`)).text();
  const openapi = (await (await fetch(`${role.baseUrl}/_docs/openapi.json`)).json()) as Record<string, unknown>;
  const result = await crawlWsdl({ baseUrl: role.baseUrl, credentials: role.credentials, wsdl, openapi });
  const truth = await control<{ entities: Record<string, { id: string; deleted: boolean }[]> }>(farm, "GET", `/v1/worlds/${created.world}/roles/pay/records`);
  const log = await control<{ records: unknown[] }>(farm, "GET", `/v1/worlds/${created.world}/roles/pay/requests`);
  return { result, truth: truth.entities, logged: log.records.length };
}

describe("the WSDL contract", () => {
  it("has a SOAP vendor to run on", () => expect(SOAP.length).toBeGreaterThan(0));

  it("covers two SOAP vendors", () => expect(SOAP.length).toBeGreaterThanOrEqual(2));

  describe.each(SOAP)("$vendor driven by its true WSDL alone", ({ vendor, file, feed, keepsDeleted }) => {
    it("authenticates, pages every list operation to its end, reads records, and sees every seeded record once", { timeout: 60_000 }, async () => {
      const { result, truth, logged } = await crawl(vendor, file, "true", 1);
      expect(result.problems).toEqual([]);
      const listed = Object.keys(result.records);
      expect(listed.length).toBeGreaterThan(0);
      for (const entity of listed) {
        const expected = truth[entity].filter((r) => keepsDeleted || !r.deleted).map((r) => String(r.id));
        expect(new Set(result.records[entity]).size, `${entity} served twice`).toBe(result.records[entity].length);
        expect([...result.records[entity]].sort(), entity).toEqual([...expected].sort());
      }
      const deleted = Object.values(truth)
        .flat()
        .filter((r) => r.deleted)
        .map((r) => String(r.id));
      // A service with a delete feed reports each deletion (the feed's own case below proves there are some); one without reports none.
      expect([...result.deletions].sort()).toEqual(feed ? [...deleted].sort() : []);
      expect(result.operations.some((o) => o.startsWith("Get"))).toBe(true);
      expect(logged).toBe(result.requests);
    });
  });

  it("has a SOAP vendor with a delete feed", () => expect(SOAP.filter((s) => s.feed).length).toBeGreaterThan(0));

  it.each(SOAP.filter((s) => s.feed))("$vendor's delete feed has deletions to report at checkpoint 1", { timeout: 60_000 }, async ({ vendor, file }) => {
    const { result, truth } = await crawl(vendor, file, "true", 1);
    const deleted = Object.values(truth)
      .flat()
      .filter((r) => r.deleted);
    expect(deleted.length).toBeGreaterThan(0);
    expect(result.deletions).toHaveLength(deleted.length);
  });

  it("fails when the WSDL lies: paygrade's stale WSDL promises pages of 500, which the service refuses", { timeout: 60_000 }, async () => {
    const { result } = await crawl("paygrade", "PayrollGateway.wsdl", "stale");
    expect(result.problems.join("\n")).toMatch(/count must be at most 100/);
  });
});
