/**
 * @module words
 * Small English helpers for generated messages and documentation.
 */

/** A noun (or a code-quoted name) with its indefinite article: "a candidate", "an `access_token`". */
export function withArticle(noun: string): string {
  return `${/^`?[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`;
}
