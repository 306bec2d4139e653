/**
 * @module request-body
 * Limits on what a request body may be and how it is kept. A client chooses
 * its body freely, so nothing here may throw, recurse on client data or hold
 * more than a bounded amount of it: every request, whatever it sends, gets one
 * log row that fits the storage row and reads back.
 */

/** Bodies larger than this are answered 413 and logged by size and digest. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
/** Characters of body text a log row keeps. */
export const LOGGED_BODY_CHARS = 256 * 1024;
/** JSON nested deeper than this is not parsed: it is kept as text and refused as invalid. */
export const MAX_JSON_DEPTH = 64;

export type { BodyNote } from "../../../evidence/logs.ts";

/**
 * Whether JSON text nests deeper than `max` (objects and arrays), found by one
 * pass over the characters: parsing first would let the client pick the depth
 * of every later walk over the value.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92 /* \ */) i++;
      else if (ch === 34 /* " */) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 123 /* { */ || ch === 91 /* [ */) {
      depth++;
      if (depth > max) return true;
    } else if (ch === 125 /* } */ || ch === 93 /* ] */) depth--;
  }
  return false;
}

/** Body bytes as text: strict UTF-8, or a lossy decoding flagged as such. */
export function decodeBody(bytes: Uint8Array): { text: string; utf8: boolean } {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes), utf8: true };
  } catch {
    return { text: new TextDecoder("utf-8").decode(bytes), utf8: false };
  }
}

/** The most characters JSON gives one UTF-16 unit (`\u001f`): text this short surely fits, unserialised. */
const JSON_CHARS_PER_UNIT = 6;

/**
 * `text` cut so its JSON encoding has at most `maxChars` characters. Secrets
 * that occur in the cut-off part are named after the marker, so leak checks
 * still see them.
 */
export function truncateText(text: string, maxChars: number, secrets: readonly string[] = []): string {
  if (text.length * JSON_CHARS_PER_UNIT + 2 <= maxChars || JSON.stringify(text).length <= maxChars) return text;
  const marker = (kept: number) => {
    const dropped = text.slice(kept);
    const held = secrets.filter((s) => s.length >= 8 && dropped.includes(s) && !text.slice(0, kept).includes(s));
    return `…[${text.length - kept} more characters${held.length ? `; holds ${held.join(" ")}` : ""}]`;
  };
  let kept = Math.max(0, maxChars - 64);
  for (;;) {
    const candidate = text.slice(0, kept) + marker(kept);
    const size = JSON.stringify(candidate).length;
    if (size <= maxChars || kept === 0) return candidate;
    kept = Math.max(0, Math.min(kept - 1, Math.floor((kept * maxChars) / size) - 64));
  }
}

/**
 * A string map (query or headers) whose JSON encoding fits `maxChars`: long
 * values are cut first, then entries beyond what fits are dropped and counted.
 */
export function boundedStringMap(map: Record<string, string>, maxChars: number, secrets: readonly string[] = []): Record<string, string> {
  let bound = 2;
  for (const k in map) bound += (k.length + map[k].length) * JSON_CHARS_PER_UNIT + 6;
  if (bound <= maxChars || JSON.stringify(map).length <= maxChars) return map;
  const perValue = 2048;
  // No prototype: a client may name a key `__proto__`.
  const out: Record<string, string> = Object.create(null);
  let size = 2;
  let dropped = 0;
  for (const [k, v] of Object.entries(map)) {
    const key = truncateText(k, 256, secrets);
    const value = truncateText(v, perValue, secrets);
    const cost = JSON.stringify(key).length + JSON.stringify(value).length + 2;
    if (size + cost > maxChars - 64) {
      dropped++;
      continue;
    }
    out[key] = value;
    size += cost;
  }
  if (dropped) out["…"] = `${dropped} more entries not kept`;
  return out;
}
