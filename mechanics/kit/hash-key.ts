/**
 * @module hash-key
 * 32-bit FNV-1a over joined key parts: the one hash behind seeded streams and
 * cursor check values.
 */
export function hashKey(parts: readonly (string | number)[]): number {
  let h = 0x811c9dc5;
  const s = parts.join("\u241f");
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
