import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BOARD, placementOf } from "./task.ts";

const csv = readFileSync(join(import.meta.dirname, "repo", "input", "desk-board.csv"), "utf8");

describe("task-0032's answer key", () => {
  it("holds the board_ref and placement_ref of every row of the board the agent gets", () => {
    const [header, ...lines] = csv.trimEnd().split("\n");
    const cols = header.split(",");
    expect(csv).not.toContain('"');
    const rows = lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [cols[i], v])));
    expect(BOARD).toEqual(rows.map((r) => ({ board_ref: r.board_ref, placement_ref: r.placement_ref })));
  });

  it("reads a hand-typed reference by its number, whatever the case, separator, spaces and zeros", () => {
    for (const ref of ["plc_000123", "PLC-000123", "plc-123", "PLC 123", " plc_000123 ", "123"]) expect(placementOf(ref), ref).toBe("plc_000123");
    expect(placementOf("plc_000000")).toBe("plc_000000");
    expect(placementOf("TBC")).toBeNull();
    expect(placementOf("plc_12a")).toBeNull();
  });
});
