import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { documentMatrix, MATRIX_DOC, normalizeTable, vendorMatrix } from "../../scripts/docs/vendor-matrix.ts";
import { VENDORS } from "../../declarations/vendors/index.ts";

describe("the vendor matrix of docs/vendors.md", () => {
  it("is the one the declarations generate (run node scripts/docs/vendor-matrix.ts --write)", () => {
    const doc = readFileSync(MATRIX_DOC, "utf8");
    expect(normalizeTable(documentMatrix(doc) ?? "")).toBe(normalizeTable(vendorMatrix()));
  });

  it("has a row per vendor and a cell per column, and changes when a declaration does", () => {
    const rows = vendorMatrix().split("\n").slice(2);
    expect(rows).toHaveLength(Object.keys(VENDORS).length);
    for (const r of rows) expect(r.split(/(?<!\\)\|/).length - 2).toBe(11);
    const hirewire = structuredClone(VENDORS.hirewire);
    hirewire.rateLimit = undefined;
    const cells = (row: string) => row.split(/(?<!\\)\|/).map((c) => c.trim());
    expect(cells(vendorMatrix([VENDORS.hirewire]).split("\n")[2])[8]).toMatch(/^120 then 3 s/);
    expect(cells(vendorMatrix([hirewire]).split("\n")[2])[8]).toBe("—");
  });
});
