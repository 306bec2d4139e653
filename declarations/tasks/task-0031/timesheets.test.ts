import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { approvedHundredths, feeBody, feeCents, inQuarter, placementId, TIMESHEETS, timesheetHundredths } from "./task.ts";

const csv = readFileSync(join(import.meta.dirname, "repo", "input", "tallybook-q1-timesheets.csv"), "utf8");

describe("task-0031's answer key", () => {
  it("holds every timesheet of the Tallybook export the agent gets", () => {
    const records: Record<string, string>[] = parse(csv, { bom: true, columns: true });
    expect(TIMESHEETS).toEqual(records.map((r) => ({ timesheet_id: r["Timesheet ID"], placement: r.Placement, week_ending: r["Week ending"], hours: r.Hours, status: r.Status })));
  });

  it("keeps the export's traps: a byte order mark, CRLF rows and quoted commas, quotes and line breaks", () => {
    expect(csv.startsWith("\uFEFF")).toBe(true);
    expect(csv).toContain('"O""Neill, Siobhan"');
    expect(csv).toMatch(/"[^"]*\n[^"]*"/);
    expect(csv.split("\r\n").length).toBeGreaterThan(TIMESHEETS.length);
  });

  it("counts approved hours of the quarter only", () => {
    const total = [...approvedHundredths().values()].reduce((a, b) => a + b, 0);
    const counted = TIMESHEETS.filter((t) => t.status === "approved" && inQuarter(t.week_ending)).reduce((a, t) => a + timesheetHundredths(t.hours), 0);
    expect(total).toBe(counted);
    expect(TIMESHEETS.some((t) => t.status !== "approved")).toBe(true);
    expect(TIMESHEETS.filter((t) => t.status === "approved" && !inQuarter(t.week_ending)).length).toBeGreaterThanOrEqual(4);
    expect(inQuarter("2025-03-30")).toBe(true);
    expect(inQuarter("2025-04-06")).toBe(false);
    expect(inQuarter("2024-12-29")).toBe(false);
  });

  it("reads a mobile timesheet's hours and minutes as hours, in whole hundredths", () => {
    expect(timesheetHundredths("37:30")).toBe(3750);
    expect(timesheetHundredths("12:15")).toBe(1225);
    expect(timesheetHundredths("7:30")).toBe(750);
    expect(timesheetHundredths("40")).toBe(4000);
    expect(timesheetHundredths("12.25")).toBe(1225);
    const mobile = TIMESHEETS.filter((t) => t.hours.includes(":"));
    expect(mobile.filter((t) => t.status === "approved").length).toBeGreaterThanOrEqual(10);
    for (const t of mobile) expect(Number.isInteger(timesheetHundredths(t.hours))).toBe(true);
  });

  it("has a placement whose only approved hours fall outside the quarter (it gets no row)", () => {
    const outside = new Set(TIMESHEETS.filter((t) => t.status === "approved" && !inQuarter(t.week_ending)).map((t) => t.placement));
    expect([...outside].some((p) => !approvedHundredths().has(p))).toBe(true);
  });

  it("reads a placement written without its leading zeros as the PlaceMint id it names", () => {
    expect(placementId("plc_7")).toBe("plc_000007");
    expect(placementId(" plc_000118 ")).toBe("plc_000118");
    const short = TIMESHEETS.filter((t) => t.status === "approved" && inQuarter(t.week_ending) && !/^plc_\d{6}$/.test(t.placement));
    expect(short.length).toBeGreaterThanOrEqual(3);
    // each names a placement that also has timesheets under its full id, so taking it as written splits the placement in two
    for (const t of short) expect(TIMESHEETS.some((u) => u.placement === placementId(t.placement))).toBe(true);
    expect([...approvedHundredths().keys()].every((p) => /^plc_\d{6}$/.test(p))).toBe(true);
  });

  it("rounds the fee to the nearest cent, halves up, and writes it with two decimals", () => {
    expect(feeCents(15_000, 6125, 1850)).toBe(169_969);
    expect(feeCents(100, 2, 2500)).toBe(1);
    expect(feeCents(100, 1, 4999)).toBe(0);
    expect(feeBody("GBP", 169_969)).toBe("Q1 2025 agency fee: GBP 1699.69 (fee-close 2025-Q1)");
    expect(feeBody("USD", 5)).toBe("Q1 2025 agency fee: USD 0.05 (fee-close 2025-Q1)");
  });
});
