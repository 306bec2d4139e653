/**
 * @module vendor-call
 * Reads a client's request into the `VendorCall` the surface hands a world's
 * Durable Object (`world/vendor-rpc.ts`): the body's first bytes up to the
 * limit, and the rest (only when there is more) as a stream.
 */
import { BODY_LIMIT_BYTES } from "../engine/http/request-body.ts";
import type { VendorCall } from "../world/vendor-rpc.ts";

/**
 * Reads a request into a {@link VendorCall}, holding at most the limit (plus
 * one chunk) in memory. `origin` is the request URL's, when the caller has
 * parsed it already.
 */
export async function toVendorCall(request: Request, path: string, origin = new URL(request.url).origin): Promise<VendorCall> {
  const headers: [string, string][] = [];
  request.headers.forEach((value, name) => headers.push([name, value]));
  const base = { method: request.method.toUpperCase(), url: request.url, origin, path, headers };
  if (!request.body) return { ...base, head: new Uint8Array(0), rest: null };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { ...base, head: concat(chunks, size), rest: null };
    chunks.push(value);
    size += value.byteLength;
    if (size > BODY_LIMIT_BYTES) break;
  }
  const all = concat(chunks, size);
  const overflow = all.subarray(BODY_LIMIT_BYTES);
  const rest = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(overflow.slice());
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { ...base, head: all.slice(0, BODY_LIMIT_BYTES), rest };
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
