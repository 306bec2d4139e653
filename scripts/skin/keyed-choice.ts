/**
 * @module keyed-choice
 * Deterministic choices derived from a skin key: the same key and label
 * always give the same number, and nothing else (no host clock, no
 * `Math.random`) goes in.
 */
import { createHash } from "node:crypto";

/** A 32-bit number for `label` under `key`; `attempt` moves to the next choice when one collides. */
export function keyedNumber(key: string, label: string, attempt = 0): number {
  return createHash("sha256").update(`${key}\0${label}\0${attempt}`).digest().readUInt32BE(0);
}

/** One of `options`, chosen by key and label. */
export function keyedPick<T>(key: string, label: string, options: readonly T[], attempt = 0): T {
  if (options.length === 0) throw new Error(`keyedPick: no options for ${label}`);
  return options[keyedNumber(key, label, attempt) % options.length];
}

/** Six hex digits that name the skin (in its release id and canaries). */
export function skinTag(key: string): string {
  return createHash("sha256").update(`wirebench-skin\0${key}`).digest("hex").slice(0, 6);
}
