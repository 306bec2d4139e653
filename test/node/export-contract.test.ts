import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VENDORS } from "../../declarations/vendors/index.ts";
import { columnReference, type ExportReport, type ExportTarget, fetchExportDocs, runExportContract } from "../../scripts/contract/export-contract.ts";
import type { LocalFarm } from "../../scripts/farm/local-farm.ts";
import { control, startFarm } from "./farm.ts";

let farm: LocalFarm;

beforeAll(async () => {
  farm = await startFarm();
});

afterAll(async () => {
  await farm?.stop();
});

const EXPORTING = Object.values(VENDORS).filter((v) => v.exports);

/** A seeded world with true documents, and the target the contract reads (documents optionally edited first). */
async function targetOf(vendor: string, edit?: (docs: { doc: Record<string, any>; exportsPage: string }) => { doc: Record<string, any>; exportsPage: string }) {
  const created = await control(farm, "POST", "/v1/worlds", { vendors: { ats: vendor }, seed: 3, docsProfile: "true" });
  const ats = created.vendors.ats;
  let docs = await fetchExportDocs(ats.baseUrl);
  if (edit) docs = edit(structuredClone(docs));
  const target: ExportTarget = { baseUrl: ats.baseUrl, credentials: ats.credentials, ...docs };
  return { world: created.world as string, target };
}

function describeViolations(r: ExportReport): string {
  return r.violations.map((v) => `${v.operation} [${v.check}] ${v.message}`).join("\n");
}

describe("vendors that declare exports", () => {
  it("are at least the two this contract was written against", () => {
    expect(EXPORTING.map((v) => v.id).sort()).toEqual(expect.arrayContaining(["placemint", "recruitos"]));
  });
});

describe.each(EXPORTING.map((v) => v.id))("the export flow of %s, driven from its true documents only", (vendor) => {
  it("downloads every documented export with the documented columns, one row per seeded live record", { timeout: 30_000 }, async () => {
    const { world, target } = await targetOf(vendor);
    const report = await runExportContract(target);
    expect(report.violations, `export contract violations:\n${describeViolations(report)}`).toEqual([]);

    const declared = VENDORS[vendor].exports!.resources;
    expect(report.exports.map((x) => x.name)).toEqual(declared.map((x) => x.name));
    const truth = await control<{ entities: Record<string, { deleted: boolean; record: Record<string, unknown> }[]> }>(farm, "GET", `/v1/worlds/${world}/roles/ats/records`);
    const reference = columnReference(target.exportsPage);
    for (const found of report.exports) {
      const x = declared.find((d) => d.name === found.name)!;
      // The documented column reference is the declared one, and the file's header is the documented one.
      expect(reference.get(found.name)!.columns.map((c) => [c.header, c.field])).toEqual(x.columns.map((c) => [c.header, c.field]));
      expect(found.header).toEqual(x.columns.map((c) => c.header));
      expect(found.entity).toBe(x.resource);
      const seeded = truth.entities[x.resource].filter((r) => !r.deleted).map((r) => String(r.record.id));
      expect(new Set(found.ids).size, `${found.name}: ids repeat`).toBe(found.ids.length);
      expect([...found.ids].sort()).toEqual([...seeded].sort());
      expect(found.polls).toBe(VENDORS[vendor].exports!.pollsUntilReady + 1);
      expect(found.valuesCompared).toBeGreaterThan(found.header.length * 10);
    }

    // Everything the contract sent reached the vendor and was logged once, with the status the contract saw.
    const log = await control<{ records: { method: string; path: string; query: Record<string, string>; status: number }[] }>(farm, "GET", `/v1/worlds/${world}/roles/ats/requests`);
    expect(log.records.map((r) => ({ method: r.method, path: r.path, query: r.query, status: r.status }))).toEqual(report.calls);
  });
});

describe("the export contract can fail", () => {
  it("reports a byte order mark the document does not mention, which then spoils the first column's name", { timeout: 30_000 }, async () => {
    const { target } = await targetOf("placemint", (docs) => {
      for (const item of Object.values<Record<string, any>>(docs.doc.paths))
        for (const op of Object.values<Record<string, any>>(item)) if (op["x-wirebench-export"]?.step === "download") op["x-wirebench-export"].bom = false;
      return docs;
    });
    const found = describeViolations(await runExportContract(target));
    expect(found).toMatch(/\[format\] fee_statements: the file starts with a byte order mark the document does not mention/);
    expect(found).toMatch(/\[columns\] fee_statements: header \["\uFEFFPlacement ID",/);
  });

  it("reports a file whose columns differ from the column reference", { timeout: 30_000 }, async () => {
    const { target } = await targetOf("recruitos", (docs) => ({ ...docs, exportsPage: docs.exportsPage.replace("| Email | `email` |", "| E-mail | `email` |") }));
    const found = describeViolations(await runExportContract(target));
    expect(found).toMatch(/\[columns\] candidates: header .*"Email".* is not the documented .*"E-mail"/);
  });

  it("reports a file that is not CSV as documented (the wrong delimiter)", { timeout: 30_000 }, async () => {
    const { target } = await targetOf("recruitos", (docs) => {
      for (const item of Object.values<Record<string, any>>(docs.doc.paths))
        for (const op of Object.values<Record<string, any>>(item)) if (op["x-wirebench-export"]?.step === "download") op["x-wirebench-export"].delimiter = ";";
      return docs;
    });
    const report = await runExportContract(target);
    expect(describeViolations(report)).toMatch(/\[(format|columns)\] candidates: /);
    expect(report.violations.length).toBeGreaterThan(0);
  });
});
