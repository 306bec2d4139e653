/**
 * @module wire-cut
 * A fault that cuts a response off mid-body. The cut happens in the Worker
 * that holds the client's connection: a stream that errors inside the Durable
 * Object reaches the Worker as an RPC failure before any byte of it does.
 */

/** How long the sent part of a cut body has to leave before the connection breaks. */
const FLUSH_MS = 25;

/** A response that sends the first `cutAfterBytes` bytes of `body`, then breaks the connection. */
export function cutOffResponse(status: number, headers: Record<string, string>, body: ArrayBuffer, cutAfterBytes: number): Response {
  const bytes = new Uint8Array(body.slice(0, cutAfterBytes));
  let sent = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sent && bytes.byteLength) {
        sent = true;
        controller.enqueue(bytes);
        return;
      }
      // Let the sent part leave before the connection breaks, as on a real wire.
      await new Promise((resolve) => setTimeout(resolve, FLUSH_MS));
      controller.error(new Error("connection reset by a declared fault"));
    },
  });
  return new Response(stream, { status, headers });
}
