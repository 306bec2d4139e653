import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { LINKS } from "./task.ts";

describe("task-0033's answer key", () => {
  it("holds the id columns of every row of the links sheet the agent gets", () => {
    const records: Record<string, string>[] = parse(readFileSync(join(import.meta.dirname, "repo", "input", "links.csv"), "utf8"), { columns: true });
    expect(LINKS).toEqual(records.map((r) => ({ candidate_id: r.candidate_id, placement_id: r.placement_id })));
  });
});
