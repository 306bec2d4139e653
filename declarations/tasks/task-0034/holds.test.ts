import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { holds, holdsCsv } from "./holds.ts";

describe("task-0034 holds", () => {
  it("are the file the connector gets", () => {
    expect(readFileSync(join(import.meta.dirname, "repo", "holds.csv"), "utf8")).toBe(holdsCsv());
  });
  it("name each report once, and a dozen ids Vettly never issued", () => {
    const ids = holds().map((h) => h.report_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => Number(id.slice(4)) > 750)).toHaveLength(12);
  });
});
