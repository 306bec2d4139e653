/**
 * @module media-type
 * A Content-Type's essence, as the Fetch standard and real stacks read it:
 * the `type/subtype` before any parameter, trimmed and lower-cased. What a
 * parameter says (`application/json; x=text/xml`) never changes the type.
 */

/** The `type/subtype` of a Content-Type header ("" when there is none). */
export function mediaTypeEssence(header: string | null): string {
  return (header ?? "").split(";", 1)[0].trim().toLowerCase();
}
