import type { Board } from "./board.ts";
import type { PlaceMintClient } from "./placemint.ts";

export const CLOSE_AUTHOR = "Delivery desk";
export const closeBody = (id: string) => `Closed out by the delivery desk: ${id} has ended.`;

/**
 * Closes a placement out once: the key is the placement's, the same on every attempt, in the
 * listener and in `sync`, so PlaceMint applies it once whoever writes it and whatever is lost.
 */
export async function closeOut(client: PlaceMintClient, board: Board, id: string): Promise<void> {
  if (board.state.closed.includes(id)) return;
  await client.request("POST", "/v2/notes", { placement_id: id, body: closeBody(id), author: CLOSE_AUTHOR, visibility: "agency" }, { "idempotency-key": `closeout:${id}` });
  board.state.closed = [...board.state.closed, id];
  board.save();
}
