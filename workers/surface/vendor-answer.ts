/**
 * @module vendor-answer
 * Builds the one `Response` the client gets from the `VendorAnswer` a world's
 * Durable Object returns in plain parts (`world/vendor-rpc.ts`).
 */
import type { VendorAnswer } from "../world/vendor-rpc.ts";
import { cutOffResponse } from "./wire-cut.ts";

/** The response as the client gets it: whole, or cut off on the wire. */
export function answerResponse(answer: VendorAnswer): Response {
  if (answer.cutAfterBytes !== null && answer.body !== null) return cutOffResponse(answer.status, answer.headers, answer.body, answer.cutAfterBytes);
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
