import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { findTask } from "../../declarations/tasks/index.ts";
import { VENDORS } from "../../declarations/vendors/index.ts";
import { COVERAGE_DOC, coverage, coverageTables, documentCoverage, LEGACY_SURFACES, taskCoverage } from "../../scripts/docs/task-coverage.ts";
import { normalizeTable } from "../../scripts/docs/vendor-matrix.ts";

describe("the vendor x task tables of docs/tasks.md", () => {
  it("are the ones the registry generates (run node scripts/docs/task-coverage.ts --write)", () => {
    expect(normalizeTable(documentCoverage(readFileSync(COVERAGE_DOC, "utf8")) ?? "")).toBe(normalizeTable(coverageTables()));
  });

  it("count a legacy surface only when the gold connector calls its path", () => {
    const entry = findTask("task-0047")!;
    expect(taskCoverage(entry)).toEqual({ task: "task-0047", vendors: ["paygrade"], surfaces: ["SOAP"] });
    const moved = { ...VENDORS, paygrade: { ...VENDORS.paygrade, gateways: VENDORS.paygrade.gateways.map((g) => ({ ...g, path: "/soap/elsewhere.asmx" })) } };
    expect(taskCoverage(entry, moved).surfaces).toEqual([]);
  });

  it("give every vendor at least two tasks and every legacy surface at least two", () => {
    const { byVendor, bySurface } = coverage();
    expect(Object.keys(byVendor)).toEqual(Object.keys(VENDORS));
    expect(Object.entries(byVendor).filter(([, tasks]) => tasks.length < 2)).toEqual([]);
    expect(LEGACY_SURFACES.filter((s) => bySurface[s].length < 2)).toEqual([]);
  });
});
