import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DECISIONS_CSV, decidedMs, parseDecisions } from "../../declarations/tasks/task-0028/decisions.ts";

describe("task-0028 decisions", () => {
  it("judges the export the starter ships", () => {
    expect(readFileSync("declarations/tasks/task-0028/repo/input/screening_decisions.csv", "utf8")).toBe(DECISIONS_CSV);
  });

  it("reads every row, duplicates included", () => {
    const rows = parseDecisions(DECISIONS_CSV);
    expect(rows).toHaveLength(DECISIONS_CSV.trim().split("\n").length - 1);
    expect(rows.filter((r) => r.application_id === 5000128).map((r) => r.decided_at)).toEqual(["2025-10-07T10:50:00Z", "2025-10-07T07:05:00Z"]);
    expect(rows.every((r) => Number.isInteger(r.application_id) && !Number.isNaN(Date.parse(r.decided_at)))).toBe(true);
  });

  it("reads a time without an offset as Dublin time, summer time included", () => {
    expect(decidedMs("2025-10-07T07:20:00")).toBe(Date.parse("2025-10-07T06:20:00Z"));
    expect(decidedMs("2025-12-01T07:20:00")).toBe(Date.parse("2025-12-01T07:20:00Z"));
    expect(decidedMs("2025-10-07T07:20:00+02:00")).toBe(Date.parse("2025-10-07T05:20:00Z"));
    expect(decidedMs("2025-10-07T07:20:00Z")).toBe(Date.parse("2025-10-07T07:20:00Z"));
  });

  it("keeps an empty disqualified apart from false", () => {
    const rows = parseDecisions(DECISIONS_CSV);
    expect(rows.filter((r) => r.disqualified === null).map((r) => r.application_id)).toEqual([5000063, 5000041]);
  });
});
