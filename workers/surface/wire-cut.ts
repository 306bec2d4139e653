/**
 * @module wire-cut
 * A world object asks the surface to drop the connection mid-body (a fault
 * that cuts a response off) with an internal header. The cut happens here,
 * in the Worker that holds the client's connection: a stream that errors
 * inside the Durable Object reaches the Worker as an RPC failure before any
 * byte of it does. The header never reaches a client.
 */

/** Response header naming how many body bytes go out before the connection drops. */
export const CUT_HEADER = "x-wirebench-cut-after";

/** How long the sent part of a cut body has to leave before the connection breaks. */
const FLUSH_MS = 25;

/** The response as the client gets it: whole, or its first bytes and then a broken connection. */
export async function applyWireCut(res: Response): Promise<Response> {
  const cut = res.headers.get(CUT_HEADER);
  if (cut === null) return res;
  const headers = new Headers(res.headers);
  headers.delete(CUT_HEADER);
  const bytes = new Uint8Array(await res.arrayBuffer()).slice(0, Number(cut));
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
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
  return new Response(body, { status: res.status, headers });
}
