/**
 * @module vendor-answer
 * What a world's Durable Object answers a vendor request with. It crosses the
 * RPC as plain parts rather than as a `Response`, whose body would be streamed
 * through a pipe to the Worker and pumped on to the client. The body crosses
 * as the `ArrayBuffer` of its UTF-8 bytes, encoded once by `TextEncoder`: a
 * `Response` made from a string transcodes it again, char by char once it
 * holds any non-ASCII character, and a `Uint8Array` view costs the RPC more
 * than the buffer it views. The Worker builds the one `Response` the client gets.
 */
import { cutOffResponse } from "./wire-cut.ts";

/** A vendor response in plain parts. */
export interface VendorAnswer {
  status: number;
  /** Lower-cased names. */
  headers: Record<string, string>;
  /** The body's UTF-8 bytes; null for none (HEAD, 304). */
  body: ArrayBuffer | null;
  /** When a declared fault cuts the response off: the body bytes that go out before the connection drops. */
  cutAfterBytes: number | null;
}

/** The response as the client gets it: whole, or cut off on the wire. */
export function answerResponse(answer: VendorAnswer): Response {
  if (answer.cutAfterBytes !== null && answer.body !== null) return cutOffResponse(answer.status, answer.headers, answer.body, answer.cutAfterBytes);
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
