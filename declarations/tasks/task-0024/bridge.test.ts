import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { BRIDGE } from "./task.ts";

describe("task-0024's answer key", () => {
  it("holds the id columns of every row of the bridge sheet the agent gets", () => {
    const records: Record<string, string>[] = parse(readFileSync(join(import.meta.dirname, "repo", "input", "bridge.csv"), "utf8"), { columns: true });
    expect(BRIDGE).toEqual(records.map((r) => ({ application_id: r.application_id, placement_id: r.placement_id })));
  });
});
