import { describe, expect, it } from "vitest";
import { ukE164 } from "../../declarations/tasks/task-0036/task.ts";

describe("task-0036 phones", () => {
  it("turns UK mobiles as HR types them into E.164", () => {
    expect(ukE164("07700 900102")).toBe("+447700900102");
    expect(ukE164("+44 7700 900105")).toBe("+447700900105");
    expect(ukE164("+44 (0)7700 900109")).toBe("+447700900109");
    expect(ukE164("0044 7700-900111")).toBe("+447700900111");
    expect(ukE164("+447700900101")).toBe("+447700900101");
  });
});
