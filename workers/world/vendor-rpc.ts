/**
 * @module vendor-rpc
 * The world object's RPC types for one vendor request: the call the surface
 * hands it and the answer it returns, both in plain parts. A `Request` cannot
 * carry a body on GET or HEAD, and a client may send one, so the call carries
 * the body's first bytes up to the limit and the rest (only when there is
 * more) as a stream the object drains to count and digest without holding it
 * (`surface/vendor-call.ts` reads a request into one). The answer crosses the
 * RPC as parts rather than as a `Response`, whose body would be streamed
 * through a pipe to the Worker and pumped on to the client. Its body crosses
 * as the `ArrayBuffer` of its UTF-8 bytes, encoded once by `TextEncoder`: a
 * `Response` made from a string transcodes it again, char by char once it
 * holds any non-ASCII character, and a `Uint8Array` view costs the RPC more
 * than the buffer it views. The surface builds the one `Response` the client
 * gets (`surface/vendor-answer.ts`).
 */

/** One vendor request as the world object receives it. */
export interface VendorCall {
  method: string;
  /** Full request URL (its query is the vendor's query). */
  url: string;
  /** The URL's origin, as the client reached the farm. */
  origin: string;
  /** Path relative to the vendor root, e.g. `/svc/candidates`. */
  path: string;
  headers: [string, string][];
  /** The body's first bytes: all of it when `rest` is null. */
  head: Uint8Array;
  /** The bytes past the body limit (`engine/http/request-body.ts`), when the body is longer. */
  rest: ReadableStream<Uint8Array> | null;
}

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
