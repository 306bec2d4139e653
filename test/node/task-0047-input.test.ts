import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RATE_CHANGES_CSV } from "../../declarations/tasks/task-0047/task.ts";

describe("task-0047's judge", () => {
  it("reads the same rate-change file the starter ships", () => {
    expect(readFileSync(new URL("../../declarations/tasks/task-0047/repo/input/rate-changes.csv", import.meta.url), "utf8")).toBe(RATE_CHANGES_CSV);
  });
});
