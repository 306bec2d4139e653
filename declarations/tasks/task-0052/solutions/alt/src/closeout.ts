import type { Board } from "./board.ts";
import type { PlaceMintClient } from "./placemint.ts";

export const CLOSE_AUTHOR = "Delivery desk";
export const closeBody = (id: string, endedAt: string) => `Closed out by the delivery desk: ${id} has ended (${endedAt}).`;

/**
 * Closes an ending out once: the key is the placement's and the moment it ended, the same on every
 * attempt, in the listener and in `sync`, so PlaceMint applies it once whoever writes it and
 * whatever is lost, and an extension that ends again gets a note of its own.
 */
export async function closeOut(client: PlaceMintClient, board: Board, id: string, endedAt: string): Promise<void> {
  if (board.state.closed.includes(id)) return;
  await client.request("POST", "/v2/notes", { placement_id: id, body: closeBody(id, endedAt), author: CLOSE_AUTHOR, visibility: "agency" }, { "idempotency-key": `closeout:${id}:${endedAt}` });
  board.state.closed = [...board.state.closed, id];
  board.save();
}

/** A placement that is not ended (again): its next ending is a new one, to be closed out again. */
export function reopened(board: Board, id: string): void {
  if (board.state.closed.includes(id)) board.state.closed = board.state.closed.filter((c) => c !== id);
}
