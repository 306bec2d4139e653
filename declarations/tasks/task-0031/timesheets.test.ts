import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { approvedHundredths, feeBody, feeCents, TIMESHEETS } from "./task.ts";

const csv = readFileSync(join(import.meta.dirname, "repo", "input", "tallybook-q1-timesheets.csv"), "utf8");

describe("task-0031's answer key", () => {
  it("holds every timesheet of the Tallybook export the agent gets", () => {
    const records: Record<string, string>[] = parse(csv, { bom: true, columns: true });
    expect(TIMESHEETS).toEqual(records.map((r) => ({ timesheet_id: r["Timesheet ID"], placement: r.Placement, hours: r.Hours, status: r.Status })));
  });

  it("keeps the export's traps: a byte order mark, CRLF rows and quoted commas, quotes and line breaks", () => {
    expect(csv.startsWith("\uFEFF")).toBe(true);
    expect(csv).toContain('"O""Neill, Siobhan"');
    expect(csv).toMatch(/"[^"]*\n[^"]*"/);
    expect(csv.split("\r\n").length).toBeGreaterThan(TIMESHEETS.length);
  });

  it("counts approved hours only", () => {
    const total = [...approvedHundredths().values()].reduce((a, b) => a + b, 0);
    const approved = TIMESHEETS.filter((t) => t.status === "approved").reduce((a, t) => a + Math.round(Number(t.hours) * 100), 0);
    expect(total).toBe(approved);
    expect(TIMESHEETS.some((t) => t.status !== "approved")).toBe(true);
  });

  it("rounds the fee to the nearest cent, halves up, and writes it with two decimals", () => {
    expect(feeCents(15_000, 6125, 1850)).toBe(169_969);
    expect(feeCents(100, 2, 2500)).toBe(1);
    expect(feeCents(100, 1, 4999)).toBe(0);
    expect(feeBody("GBP", 169_969)).toBe("Q1 2025 agency fee: GBP 1699.69 (fee-close 2025-Q1)");
    expect(feeBody("USD", 5)).toBe("Q1 2025 agency fee: USD 0.05 (fee-close 2025-Q1)");
  });
});
