/**
 * @module http-date
 * The `Date` header's text (RFC 9110's IMF-fixdate). It changes once a
 * second, so the last second's text is kept rather than formatted again for
 * every response.
 */

let last = { second: Number.NaN, text: "" };

/** `ms` (since the Unix epoch) as an HTTP date, e.g. `Thu, 03 Dec 2026 17:42:19 GMT`. */
export function httpDate(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== last.second) last = { second, text: new Date(second * 1000).toUTCString() };
  return last.text;
}
