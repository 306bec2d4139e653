import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VENDORS } from "../../declarations/vendors/index.ts";
import { gatewayStyle } from "../../mechanics/gateways/index.ts";
import type { LocalFarm } from "../../scripts/farm/local-farm.ts";
import { control, startFarm } from "./farm.ts";
import { crawlFromDocs } from "../../scripts/contract/openapi-contract.ts";
import { crawlWsdl } from "../../scripts/contract/wsdl-contract.ts";

let farm: LocalFarm;

beforeAll(async () => {
  farm = await startFarm();
});

afterAll(async () => {
  await farm?.stop();
});

interface SnapshotRecord {
  id: string;
  deleted: boolean;
}

describe.each(Object.keys(VENDORS))("a generic client reading %s from its true documents only", (vendor) => {
  it("authenticates, reads every list to its end and sees every seeded record exactly once", { timeout: 60_000 }, async () => {
    const created = await control(farm, "POST", "/v1/worlds", { vendors: { ats: vendor }, seed: 5, docsProfile: "true", rateLimits: false });
    const ats = created.vendors.ats;
    const doc = (await (await fetch(`${ats.baseUrl}/_docs/openapi.json`)).json()) as Record<string, any>;
    const crawl = await crawlFromDocs({ baseUrl: ats.baseUrl, credentials: ats.credentials, doc });
    expect(crawl.problems).toEqual([]);

    const truth = await control<{ entities: Record<string, SnapshotRecord[]> }>(farm, "GET", `/v1/worlds/${created.world}/roles/ats/records`);
    const listed = VENDORS[vendor].resources.filter((r) => r.list);
    // A vendor reached only through a SOAP gateway is read through its WSDL (the OpenAPI document still says how to authenticate).
    const soap = VENDORS[vendor].gateways.find((g) => gatewayStyle(g).description !== undefined);
    if (!listed.length && soap) {
      const wsdl = await (await fetch(`${ats.baseUrl}/_docs/${soap.service}.wsdl`)).text();
      const viaWsdl = await crawlWsdl({ baseUrl: ats.baseUrl, credentials: ats.credentials, wsdl, openapi: doc });
      expect(viaWsdl.problems).toEqual([]);
      const gatewayListed = VENDORS[vendor].resources.filter((r) => soap.operations.some((o) => o.action === "list" && o.resource === r.name));
      expect(Object.keys(viaWsdl.records).sort()).toEqual(gatewayListed.map((r) => r.name).sort());
      for (const r of gatewayListed)
        expect([...viaWsdl.records[r.name]].sort(), `${r.name} ids`).toEqual(
          (truth.entities[r.name] ?? [])
            .filter((x) => !x.deleted)
            .map((x) => String(x.id))
            .sort(),
        );
      return;
    }
    expect(listed.length).toBeGreaterThan(0);
    expect(Object.keys(crawl.records).sort()).toEqual(listed.map((r) => r.name).sort());
    const keepsDeleted = VENDORS[vendor].deletes.mode === "flag";
    for (const r of listed) {
      const expected = (truth.entities[r.name] ?? []).filter((x) => keepsDeleted || !x.deleted).map((x) => String(x.id));
      const served = crawl.records[r.name];
      expect(new Set(served).size, `${r.name}: served ${served.length} rows for ${new Set(served).size} ids`).toBe(served.length);
      expect([...served].sort(), `${r.name} ids`).toEqual([...expected].sort());
    }
    const log = await control<{ records: unknown[] }>(farm, "GET", `/v1/worlds/${created.world}/roles/ats/requests`);
    expect(log.records.length).toBe(crawl.requests);
  });
});

describe("the generic client can fail", () => {
  it("misses applications when bullpen's stale document hides the v2 list's known defect", { timeout: 60_000 }, async () => {
    const created = await control(farm, "POST", "/v1/worlds", { vendors: { ats: "bullpen" }, seed: 5, docsProfile: "stale", rateLimits: false });
    const ats = created.vendors.ats;
    const doc = (await (await fetch(`${ats.baseUrl}/_docs/openapi.json`)).json()) as Record<string, any>;
    const crawl = await crawlFromDocs({ baseUrl: ats.baseUrl, credentials: ats.credentials, doc });
    const truth = await control<{ entities: Record<string, SnapshotRecord[]> }>(farm, "GET", `/v1/worlds/${created.world}/roles/ats/records`);
    const served = new Set(crawl.records.application ?? []);
    expect(truth.entities.application.filter((a) => !a.deleted && !served.has(String(a.id))).length).toBeGreaterThan(0);
  });

  it("misses or repeats records when it follows crewcall's stale document, which leaves out the sort the gig board needs", { timeout: 60_000 }, async () => {
    const created = await control(farm, "POST", "/v1/worlds", { vendors: { ats: "crewcall" }, seed: 5, docsProfile: "stale", rateLimits: false });
    const ats = created.vendors.ats;
    const doc = (await (await fetch(`${ats.baseUrl}/_docs/openapi.json`)).json()) as Record<string, any>;
    const crawl = await crawlFromDocs({ baseUrl: ats.baseUrl, credentials: ats.credentials, doc });
    const gigs = crawl.records.gig ?? [];
    const truth = await control<{ entities: Record<string, SnapshotRecord[]> }>(farm, "GET", `/v1/worlds/${created.world}/roles/ats/records`);
    const missed = truth.entities.gig.filter((g) => !gigs.includes(String(g.id))).length;
    const repeated = gigs.length - new Set(gigs).size;
    expect(missed + repeated).toBeGreaterThan(0);
  });
});
