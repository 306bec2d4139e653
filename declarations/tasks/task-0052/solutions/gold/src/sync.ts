import { Board } from "./board.ts";
import type { Config } from "./config.ts";
import { feeStatements } from "./feestatements.ts";
import { PlaceMintClient } from "./placemint.ts";

export const CLOSE_AUTHOR = "Delivery desk";
export const closeBody = (id: string, endedAt: string) => `Closed out by the delivery desk: ${id} has ended (${endedAt}).`;

interface Note {
  id: string;
}

/**
 * Brings the board to PlaceMint's state (the fee statement export is a full, consistent
 * snapshot), closes out every placement that was not ended at the last sync and is now (an
 * extended placement that ends again is closed out again), then
 * records the statuses the next sync measures against. The first sync has no baseline and
 * closes nothing out.
 */
export async function sync(config: Config): Promise<void> {
  const client = new PlaceMintClient(config);
  const board = new Board(config.outputDir);
  const rows = await feeStatements(client);
  board.state.rows = Object.fromEntries(rows.map((r) => [r.placement_id, r]));
  board.save();

  const baseline = board.state.baseline;
  const closed = new Set(board.state.closed);
  // An extended placement (back from ended) starts a new ending: the close-out of the last one does not cover it.
  for (const r of rows) if (r.status !== "ended") closed.delete(r.placement_id);
  board.state.closed = [...closed];
  if (baseline) {
    for (const r of rows) {
      const before = baseline[r.placement_id];
      if (r.status !== "ended" || before === undefined || before === "ended" || closed.has(r.placement_id)) continue;
      // The same key on every attempt and every run for this ending (the placement and the moment it
      // ended): PlaceMint applies the note once even when an answer is lost after it was committed,
      // and a later ending of the same placement, after an extension, gets a note of its own.
      await client.request<Note>(
        "POST",
        "/v2/notes",
        { placement_id: r.placement_id, body: closeBody(r.placement_id, r.updated_at), author: CLOSE_AUTHOR, visibility: "agency" },
        { "idempotency-key": `desk-closeout-${r.placement_id}-${r.updated_at}` },
      );
      closed.add(r.placement_id);
      board.state.closed = [...closed];
      board.save();
    }
  }
  board.state.baseline = Object.fromEntries(rows.map((r) => [r.placement_id, r.status]));
  board.save();
  console.error(`board: ${rows.length} placements; ${closed.size} closed out so far`);
}
