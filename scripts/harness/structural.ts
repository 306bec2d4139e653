import type { Verdict } from "../../evidence/verdict.ts";

/** A verdict with run ids and every detail text removed: what must not change between identical runs. */
export function structural(v: Verdict): unknown {
  const strip = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(strip);
    if (x && typeof x === "object")
      return Object.fromEntries(
        Object.entries(x)
          .filter(([k]) => k !== "runId" && k !== "detail" && k !== "message")
          .map(([k, val]) => [k, strip(val)]),
      );
    return x;
  };
  return strip(v);
}

/** JSON paths where two structures differ (at most `limit`). */
export function differingPaths(a: unknown, b: unknown, limit = 20, path = "$"): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  if (a && b && typeof a === "object" && typeof b === "object") {
    const out: string[] = [];
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      out.push(...differingPaths((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], limit - out.length, `${path}.${k}`));
      if (out.length >= limit) break;
    }
    return out;
  }
  return [path];
}
