/**
 * Seeded randomness keyed by parts such as (seed, vendor, entity, index, field):
 * each key gets its own stream, so adding a field or a record never shifts the
 * values of another.
 */
export type Rng = () => number;

import { hashKey } from "../../../mechanics/kit/hash-key.ts";

export { hashKey };

/** mulberry32: small, fast, good enough for synthetic data. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stream for one key. */
export function rngFor(...parts: (string | number)[]): Rng {
  return mulberry32(hashKey(parts));
}

/** Integer in [min, max]. */
export function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

export function pickOne<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)];
}

/** `count` distinct items in a seeded order (partial Fisher-Yates). */
export function pickDistinct<T>(rng: Rng, items: readonly T[], count: number): T[] {
  const pool = items.slice();
  const n = Math.min(count, pool.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(rng() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, n);
}
