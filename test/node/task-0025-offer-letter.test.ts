import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OFFER_LETTER_SHA256 } from "../../declarations/tasks/task-0025/offer-letter.ts";

describe("task-0025 offer letter", () => {
  it("judges uploads against the file the starter ships", () => {
    const bytes = readFileSync("declarations/tasks/task-0025/repo/input/offer-letter.pdf");
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(OFFER_LETTER_SHA256);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });
});
