import { describe, expect, it } from "vitest";
import { httpDate } from "./http-date.ts";

describe("httpDate", () => {
  it("formats as Date#toUTCString does, to the second, and moves on when the second does", () => {
    const base = Date.UTC(2026, 11, 3, 17, 42, 19, 0);
    for (const ms of [base, base + 999, base + 1000, base - 1, base + 86_400_000 + 500, 0, base]) {
      expect(httpDate(ms)).toBe(new Date(Math.floor(ms / 1000) * 1000).toUTCString());
    }
    expect(httpDate(base + 1)).toBe("Thu, 03 Dec 2026 17:42:19 GMT");
    expect(httpDate(base + 1000)).toBe("Thu, 03 Dec 2026 17:42:20 GMT");
  });
});
