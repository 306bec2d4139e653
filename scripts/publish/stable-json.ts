/**
 * @module stable-json
 * JSON with object keys sorted at every level, so the same runs publish the
 * same bytes and a release can be diffed.
 */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as object).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

export function stableJson(value: unknown, indent = 2): string {
  return `${JSON.stringify(sortKeys(value), null, indent)}\n`;
}
