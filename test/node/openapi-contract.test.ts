import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalFarm } from "../../scripts/farm/local-farm.ts";
import { VENDORS } from "../../declarations/vendors/index.ts";
import { control, startFarm } from "./farm.ts";
import { runContract, type ContractResult, type Violation } from "../../scripts/contract/openapi-contract.ts";
import type { DocsProfile } from "../../declarations/schema/docs-profile.ts";

/**
 * Engine/documentation mismatches the contract finds in the truthful documents
 * today. Each is a bug in the engine or the generator (reported, not fixed
 * here); the test fails when one disappears so the entry gets removed.
 */
interface KnownMismatch {
  vendor: string;
  operation: string;
  check: string;
  message: RegExp;
  why: string;
}

const KNOWN_MISMATCHES: KnownMismatch[] = [];

function isKnown(vendor: string, v: Violation): boolean {
  return KNOWN_MISMATCHES.some((k) => k.vendor === vendor && k.operation === v.operation && k.check === v.check && k.message.test(v.message));
}

function describeViolations(vs: Violation[]): string {
  return vs.map((v) => `${v.operation} [${v.check}] ${v.message}`).join("\n");
}

/** The JSON operations a document describes (XML gateways have their own contract). */
function documentedOperations(doc: Record<string, any>): string[] {
  return Object.values<Record<string, any>>(doc.paths).flatMap((item) =>
    Object.values<Record<string, any>>(item)
      .filter((op) => !op["x-wirebench-gateway"])
      .map((op) => op.operationId as string),
  );
}

let farm: LocalFarm;

beforeAll(async () => {
  farm = await startFarm();
});

afterAll(async () => {
  await farm?.stop();
});

/** Creates a seeded world with the given documentation profile, reads its OpenAPI document and runs the contract. */
async function contractOf(vendor: string, profile: DocsProfile, edit?: (doc: Record<string, any>) => void) {
  const created = await control(farm, "POST", "/v1/worlds", { vendors: { ats: vendor }, seed: 3, docsProfile: profile });
  const ats = created.vendors.ats;
  const res = await fetch(`${ats.baseUrl}/_docs/openapi.json`);
  expect(res.status).toBe(200);
  const doc = (await res.json()) as Record<string, any>;
  expect(doc.servers[0].url).toBe(ats.baseUrl);
  edit?.(doc);
  const result: ContractResult = await runContract({ baseUrl: ats.baseUrl, credentials: ats.credentials, doc });
  return { world: created.world as string, doc, result };
}

describe.each(Object.keys(VENDORS))("%s against its true OpenAPI document", (vendor) => {
  it("serves every documented operation as documented", { timeout: 20_000 }, async () => {
    const { world, doc, result } = await contractOf(vendor, "true");

    expect([...result.operations].sort()).toEqual(documentedOperations(doc).sort());
    const unexpected = result.violations.filter((v) => !isKnown(vendor, v));
    expect(unexpected, `contract violations:\n${describeViolations(unexpected)}`).toEqual([]);
    const gone = KNOWN_MISMATCHES.filter((k) => k.vendor === vendor && !result.violations.some((v) => v.operation === k.operation && v.check === k.check && k.message.test(v.message)));
    expect(gone, "known mismatches no longer reported: remove them from KNOWN_MISMATCHES").toEqual([]);
    // The seeded world is deterministic, so every paging and flag check must have had data to work on.
    // ...except the deletion feed, which is empty before the first checkpoint.
    expect(result.skipped.filter((s) => !s.startsWith("list_tombstones:"))).toEqual([]);

    // Everything the contract sent reached the vendor and was logged with the status the contract saw.
    const log = await control<{ records: { method: string; path: string; query: Record<string, string>; status: number }[] }>(farm, "GET", `/v1/worlds/${world}/roles/ats/requests`);
    expect(log.records.map((r) => ({ method: r.method, path: r.path, query: r.query, status: r.status }))).toEqual(result.calls);
  });
});

describe("the contract can fail", () => {
  it("reports violations against hirewire's stale document (pages from 0, millisecond timestamps)", { timeout: 20_000 }, async () => {
    const { result } = await contractOf("hirewire", "stale");
    expect(result.violations.length, "the stale document should not pass the contract").toBeGreaterThan(0);
    // The violations are the documented lies showing through, not noise.
    expect(result.violations.some((v) => v.check === "paging" && /page=0\b.*answered 400/.test(v.message))).toBe(true);
    expect(result.violations.some((v) => v.check === "schema" && /must match format "unix-ms"/.test(v.message))).toBe(true);
  });

  it("reports the repeated first page a list gives when the document leaves out the sort it needs (crewcall's stale gig board)", { timeout: 20_000 }, async () => {
    const { result } = await contractOf("crewcall", "stale");
    expect(result.violations.some((v) => v.operation === "list_gigs" && v.check === "paging" && /second page .* repeats records of the first page/.test(v.message))).toBe(true);
  });

  it("reports a documented header that never comes, a maximum the vendor does not honour, and an undocumented 401", { timeout: 20_000 }, async () => {
    const { result } = await contractOf("hirewire", "true", (doc) => {
      doc.paths["/v1/candidates/{id}"].get.responses["200"].headers["X-Contract-Probe"] = { description: "Always sent.", schema: { type: "string" } };
      doc.paths["/v1/audit-events"].get.parameters.find((p: { name: string }) => p.name === "per_page").schema.maximum = 10;
      delete doc.paths["/v1/candidates/{id}/stage"].post.responses["401"];
    });
    const found = describeViolations(result.violations);
    expect(found).toMatch(/get_candidate \[header\] valid request: documented header X-Contract-Probe is missing/);
    expect(found).toMatch(/list_audit_events \[paging\] page size above the maximum \(per_page=11&page=1\) returned 11 records, more than the documented maximum 10/);
    expect(found).toMatch(/moveStage \[status\] without credentials: status 401 is not documented/);
  });
});
