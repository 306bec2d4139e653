import { describe, expect, it } from "vitest";
import { bootstrapMeanCI, flipRate, pairedBootstrap, passHatK, wilsonCI } from "./stats.ts";

describe("Wilson score interval", () => {
  it.each([
    // Reference values (z = 1.96) as printed by statsmodels' proportion_confint(method="wilson").
    [8, 10, 0.4902, 0.9433],
    [0, 10, 0, 0.2775],
    [10, 10, 0.7225, 1],
    [1, 2, 0.0945, 0.9055],
    [50, 100, 0.4038, 0.5962],
  ])("%i of %i: [%f, %f]", (s, n, low, high) => {
    const ci = wilsonCI(s, n);
    expect(ci.low).toBeCloseTo(low, 3);
    expect(ci.high).toBeCloseTo(high, 3);
  });
});

describe("bootstrap interval of the mean", () => {
  it("is a point for constant data, symmetric around the mean of symmetric data, and the same for the same seed", () => {
    expect(bootstrapMeanCI([70, 70, 70, 70])).toEqual({ low: 70, high: 70 });
    const xs = [0, 100, 0, 100, 0, 100, 0, 100, 0, 100];
    const ci = bootstrapMeanCI(xs);
    expect(ci.low).toBeGreaterThan(10);
    expect(ci.high).toBeLessThan(90);
    expect(50 - ci.low).toBeCloseTo(ci.high - 50, 0);
    expect(bootstrapMeanCI(xs)).toEqual(ci);
  });

  it("matches the normal approximation for a large sample (mean 50, sd 50/sqrt(n))", () => {
    const xs = Array.from({ length: 400 }, (_, i) => (i % 2 ? 100 : 0));
    const ci = bootstrapMeanCI(xs);
    expect(ci.low).toBeCloseTo(50 - 1.96 * (50 / 20), 0);
    expect(ci.high).toBeCloseTo(50 + 1.96 * (50 / 20), 0);
  });
});

describe("pass^k, flip rate, paired bootstrap", () => {
  it("pass^k is C(c,k)/C(n,k)", () => {
    expect(passHatK(3, 3, 3)).toBe(1);
    expect(passHatK(2, 3, 1)).toBeCloseTo(2 / 3);
    expect(passHatK(2, 3, 2)).toBeCloseTo(1 / 3);
    expect(passHatK(2, 3, 3)).toBe(0);
    expect(passHatK(4, 5, 2)).toBeCloseTo(6 / 10);
  });

  it("flip rate is the chance two distinct trials disagree", () => {
    expect(flipRate([true, true, true])).toBe(0);
    expect(flipRate([false, false])).toBe(0);
    expect(flipRate([true, false])).toBe(1);
    expect(flipRate([true, true, false])).toBeCloseTo(2 / 3);
  });

  it("paired bootstrap: a clear gap is never reversed, a tie is reversed about half the time", () => {
    const gap = pairedBootstrap([100, 100, 90, 100], [0, 10, 0, 0]);
    expect(gap.diff).toBeCloseTo(95);
    expect(gap.reversed).toBe(0);
    const tie = pairedBootstrap([100, 0, 100, 0, 100, 0], [0, 100, 0, 100, 0, 100]);
    expect(tie.diff).toBe(0);
    const noisy = pairedBootstrap([60, 40, 70, 30, 55], [50, 50, 50, 50, 50]);
    expect(noisy.reversed).toBeGreaterThan(0.2);
    expect(noisy.reversed).toBeLessThan(0.8);
    expect(() => pairedBootstrap([1], [1, 2])).toThrow(/same tasks/);
  });
});
