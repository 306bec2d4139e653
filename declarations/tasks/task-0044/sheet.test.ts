import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { SHEET, STARTERS, canonicalEmail } from "./sheet.ts";

const rows: Record<string, string>[] = parse(readFileSync(join(import.meta.dirname, "repo", "input", "topup.csv"), "utf8"), { columns: true });

describe("task-0044's sheet key", () => {
  it("holds each line of the sheet the agent gets, numbers and emails as CrewCall writes them", () => {
    const lines = rows.map((r, i) => ({
      line: i + 1,
      gig: r.gig_id.trim(),
      person: r.crewcall_no.trim() ? { kind: "returning", number: String(Number(r.crewcall_no.trim())) } : { kind: "starter", email: canonicalEmail(r.email) },
    }));
    expect(lines).toEqual(SHEET);
  });

  it("names every starter's details, and is hand-typed: a starter twice in other capitals, a line repeated, a number with a leading zero", () => {
    const emails = new Set(rows.filter((r) => !r.crewcall_no.trim()).map((r) => canonicalEmail(r.email)));
    expect([...emails].sort()).toEqual(Object.keys(STARTERS).sort());
    expect(rows.filter((r) => r.email && r.email !== canonicalEmail(r.email)).length).toBeGreaterThanOrEqual(2);
    const keys = SHEET.map((l) => `${l.gig}|${JSON.stringify(l.person)}`);
    expect(new Set(keys).size).toBeLessThan(keys.length);
    expect(rows.some((r) => r.crewcall_no.startsWith("0"))).toBe(true);
  });
});
