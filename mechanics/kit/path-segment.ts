/**
 * @module path-segment
 * The one decoding of a path parameter: percent-escapes read as UTF-8, as
 * `decodeURIComponent` reads them, but a malformed escape (`%zz`, a lone `%`)
 * or bytes that are not UTF-8 (`%80`) give null instead of throwing, so the
 * caller answers with the vendor's own 4xx (such a segment names nothing).
 */

/** A path segment decoded, or null when its escapes are malformed or not UTF-8. */
export function decodePathSegment(raw: string): string | null {
  if (!raw.includes("%")) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}
