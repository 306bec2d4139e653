import { describe, expect, it } from "vitest";
import { clockFor, SYSTEM_CLOCK, TestClock } from "./clock.ts";

describe("the world's clock", () => {
  it("is the host's unless the test configuration binds WIREBENCH_TEST_CLOCK, and the host's on a public farm whatever is bound", () => {
    expect(clockFor({})).toBe(SYSTEM_CLOCK);
    expect(clockFor({ WIREBENCH_TEST_CLOCK: "yes" })).toBe(SYSTEM_CLOCK);
    expect(clockFor({ WIREBENCH_TEST_CLOCK: "manual", WIREBENCH_EXPOSURE: "public" })).toBe(SYSTEM_CLOCK);
    expect(clockFor({ WIREBENCH_TEST_CLOCK: "manual" })).toBeInstanceOf(TestClock);
  });

  it("moves a test clock forward by advance and by sleep, which returns without waiting", async () => {
    const clock = new TestClock();
    const start = clock.now();
    clock.advance(60_000);
    await clock.sleep(3_600_000);
    expect(clock.offsetMs).toBe(3_660_000);
    expect(clock.now() - start).toBeGreaterThanOrEqual(3_660_000);
    expect(() => clock.advance(-1)).toThrow(/only moves forward/);
  });
});
