/**
 * @module stats
 * The statistics a ranking needs, deterministic: bootstrap intervals use a
 * seeded generator, so the same runs give the same published numbers.
 */
import { mulberry32 } from "../../workers/engine/data/prng.ts";

/** A seeded uniform generator in [0, 1): the engine's own mulberry32. */
export const seededUniform = mulberry32;

export interface Interval {
  low: number;
  high: number;
}

export const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** The q-quantile of sorted values, interpolating linearly. */
function quantile(sorted: readonly number[], q: number): number {
  if (!sorted.length) return 0;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** Percentile bootstrap interval of the mean (95% by default). */
export function bootstrapMeanCI(xs: readonly number[], opts: { resamples?: number; seed?: number; level?: number } = {}): Interval {
  if (xs.length === 0) return { low: 0, high: 0 };
  const rand = seededUniform(opts.seed ?? 20261201);
  const n = xs.length;
  const means: number[] = [];
  for (let r = 0; r < (opts.resamples ?? 10_000); r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += xs[Math.floor(rand() * n)];
    means.push(sum / n);
  }
  means.sort((a, b) => a - b);
  const alpha = (1 - (opts.level ?? 0.95)) / 2;
  return { low: quantile(means, alpha), high: quantile(means, 1 - alpha) };
}

/** Wilson score interval of a proportion (95%: z = 1.959964). */
export function wilsonCI(successes: number, n: number, z = 1.959964): Interval {
  if (n === 0) return { low: 0, high: 0 };
  const p = successes / n;
  const denom = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denom;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/** pass^k of one task: the chance that k trials drawn from its n all succeed (c of n did). */
export function passHatK(c: number, n: number, k: number): number {
  return n < k ? 0 : choose(c, k) / choose(n, k);
}

/** How often two different trials of the same task disagree on solved (0: stable, 0.5+: a coin). */
export function flipRate(solved: readonly boolean[]): number {
  const n = solved.length;
  if (n < 2) return 0;
  const s = solved.filter(Boolean).length;
  return 1 - (s * (s - 1) + (n - s) * (n - s - 1)) / (n * (n - 1));
}

/**
 * Paired bootstrap of mean(a) - mean(b) over the same tasks: the observed
 * difference, its interval, and how often a resample reverses its sign.
 */
export function pairedBootstrap(a: readonly number[], b: readonly number[], opts: { resamples?: number; seed?: number } = {}): { diff: number; ci: Interval; reversed: number } {
  if (a.length !== b.length) throw new Error("paired bootstrap needs scores of the same tasks");
  const d = a.map((x, i) => x - b[i]);
  const diff = mean(d);
  if (!d.length) return { diff: 0, ci: { low: 0, high: 0 }, reversed: 0 };
  const rand = seededUniform(opts.seed ?? 20261201);
  const n = d.length;
  const resamples = opts.resamples ?? 10_000;
  const means: number[] = [];
  let reversed = 0;
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += d[Math.floor(rand() * n)];
    const m = sum / n;
    means.push(m);
    if (diff > 0 ? m <= 0 : diff < 0 ? m >= 0 : m !== 0) reversed++;
  }
  means.sort((x, y) => x - y);
  return { diff, ci: { low: quantile(means, 0.025), high: quantile(means, 0.975) }, reversed: reversed / resamples };
}
