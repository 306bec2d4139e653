import { describe, expect, it } from "vitest";
import { runCli } from "../../../test/node/run-cli.ts";
import { OTHER_SEEDS, otherSeedsOf } from "./validate.ts";

describe("validate --other-seeds", () => {
  it("takes the first n seeds of its list, never the task's own", () => {
    expect(otherSeedsOf(1, 5)).toEqual(OTHER_SEEDS.slice(0, 5));
    expect(otherSeedsOf(7, 5)).toEqual([101, 90210, 4242, 31337, 65537]);
    expect(otherSeedsOf(90210, 2)).toEqual([7, 101]);
  });

  it("refuses a count it cannot honour with one line and a usage exit", () => {
    for (const bad of ["0", "6", "x"]) {
      const r = runCli(["validate", "task-0004", "--other-seeds", bad]);
      expect(r.code, bad).toBe(2);
      expect(r.stderr.trim().split("\n"), bad).toEqual([expect.stringMatching(/--other-seeds must be an integer from 1 to 5/)]);
    }
  });
});
