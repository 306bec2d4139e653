import { describe, expect, it } from "vitest";
import type { ConnectorRun } from "../../../evidence/verdict.ts";
import { mirrorRows, objects } from "./rows.ts";

describe("objects", () => {
  it("keeps object rows in order and drops null, numbers and strings", () => {
    const a = { source_id: "a" };
    const b = { source_id: "b" };
    expect(objects<unknown>([a, null, 3, "x", b])).toEqual([a, b]);
  });
  it("gives no rows for a file that had none", () => {
    expect(objects(null)).toEqual([]);
  });
});

describe("mirrorRows", () => {
  const run = (value: unknown, parsed = true) =>
    ({ outputs: { "m.json": parsed ? { present: true, parsed: true, value } : { present: true, parsed: false, error: "bad" } } }) as unknown as ConnectorRun;
  it("reads the object rows of a parsed file", () => {
    expect(mirrorRows(run([{ source_id: "1" }, null]), "m.json")).toEqual([{ source_id: "1" }]);
  });
  it("gives none for a missing or unparsed file", () => {
    expect(mirrorRows(run([], false), "m.json")).toEqual([]);
    expect(mirrorRows(undefined, "m.json")).toEqual([]);
  });
});
