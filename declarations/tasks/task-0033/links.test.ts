import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { LINKS } from "./task.ts";

describe("task-0033's answer key", () => {
  it("holds each link of the sheet the agent gets once, its ids as the systems write them", () => {
    const records: Record<string, string>[] = parse(readFileSync(join(import.meta.dirname, "repo", "input", "links.csv"), "utf8"), { columns: true });
    const links = records.map((r) => ({ candidate_id: r.candidate_id.trim(), placement_id: r.placement_id.trim().toLowerCase() }));
    const distinct = links.filter((l, i) => links.findIndex((m) => m.candidate_id === l.candidate_id && m.placement_id === l.placement_id) === i);
    expect(LINKS).toEqual(distinct);
  });

  it("is a hand-typed sheet: some rows differ from the ids only in spaces or case, and a link is entered twice", () => {
    const records: Record<string, string>[] = parse(readFileSync(join(import.meta.dirname, "repo", "input", "links.csv"), "utf8"), { columns: true });
    expect(records.filter((r) => r.placement_id !== r.placement_id.trim().toLowerCase()).length).toBeGreaterThanOrEqual(2);
    expect(records.length).toBeGreaterThan(LINKS.length);
  });
});
