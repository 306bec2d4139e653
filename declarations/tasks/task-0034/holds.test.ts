import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { holdLines, holds, holdsCsv } from "./holds.ts";

/** Vettly's id for an id as the file has it: trimmed, lower case, six digits. */
const vettlyId = (typed: string) => `rpt_${String(Number(typed.trim().toLowerCase().replace(/^rpt_/, ""))).padStart(6, "0")}`;

describe("task-0034 holds", () => {
  it("are the file the connector gets", () => {
    expect(readFileSync(join(import.meta.dirname, "repo", "holds.csv"), "utf8")).toBe(holdsCsv());
  });
  it("name each report once, and a dozen ids Vettly never issued", () => {
    const ids = holds().map((h) => h.report_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => /^rpt_\d{6}$/.test(id))).toBe(true);
    expect(ids.filter((id) => Number(id.slice(4)) > 750)).toHaveLength(12);
  });
  it("write some ids another way and list some reports twice, each line under its report's matter", () => {
    const lines = holdLines();
    const matterOf = new Map(holds().map((h) => [h.report_id, h.matter]));
    expect(lines.every((l) => matterOf.get(vettlyId(l.report_id)) === l.matter)).toBe(true);
    expect(new Set(lines.map((l) => vettlyId(l.report_id)))).toEqual(new Set(matterOf.keys()));
    const unlike = lines.filter((l) => !matterOf.has(l.report_id));
    expect(unlike.filter((l) => /^rpt_\d{1,5}$/.test(l.report_id)).length).toBeGreaterThan(10);
    expect(unlike.filter((l) => /^RPT_/.test(l.report_id)).length).toBeGreaterThan(10);
    expect(unlike.filter((l) => l.report_id !== l.report_id.trim()).length).toBeGreaterThan(10);
    expect(lines.length - matterOf.size).toBeGreaterThan(10);
  });
});
