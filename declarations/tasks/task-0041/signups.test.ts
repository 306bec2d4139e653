import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { COLUMNS, SIGNUPS } from "./signups.ts";
import { canonicalId } from "./task.ts";

describe("task-0041's sign-up file", () => {
  const text = readFileSync(join(import.meta.dirname, "repo", "input", "harbour-signups.csv"), "utf8");
  const records: Record<string, string>[] = parse(text, { columns: true, trim: false });

  it("is the list the judge reads, row for row", () => {
    expect(Object.keys(records[0])).toEqual([...COLUMNS]);
    expect(records).toEqual(SIGNUPS.map((s) => ({ ...s })));
  });

  it("writes ids the ways an agency copies them and names some people twice (the trap the import must see through)", () => {
    const typed = SIGNUPS.map((s) => s.sourcewell_id).filter((id) => id.trim());
    expect(typed.filter((id) => id !== canonicalId(id)).length).toBeGreaterThanOrEqual(4);
    const ids = typed.map(canonicalId);
    expect(new Set(ids).size).toBeLessThan(ids.length);
    expect(SIGNUPS.filter((s) => !s.sourcewell_id.trim()).length).toBeGreaterThanOrEqual(3);
  });

  it("reads ids the agency's ways and refuses what is no id", () => {
    expect(["tl_00012", " tl_00002 ", "tl_6", "TL-12", "TL_00017", "00030"].map(canonicalId)).toEqual(["tl_00012", "tl_00002", "tl_00006", "tl_00012", "tl_00017", "tl_00030"]);
    expect(canonicalId("")).toBeNull();
    expect(canonicalId("tl_12a")).toBeNull();
  });
});
