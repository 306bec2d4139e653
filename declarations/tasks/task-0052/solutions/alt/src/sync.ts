import { Board, rowFromRecord } from "./board.ts";
import { closeOut, reopened } from "./closeout.ts";
import type { Config } from "./config.ts";
import { PlaceMintClient } from "./placemint.ts";

/**
 * Reads every placement with its fee through the JSON API (a crawl that reads the list again
 * when it moved), closes out what the board (kept by the listener since) held as not ended and
 * PlaceMint now has as ended, and writes the board. The first sync only builds.
 */
export async function sync(config: Config): Promise<void> {
  const client = new PlaceMintClient(config);
  const board = new Board(config.outputDir);
  // Deleted placements stay in the list with `deleted: true`; the board leaves them out.
  const listed = await client.listAll<{ id: string; deleted?: boolean }>("/v2/placements", "&include_fees=true");
  const rows = listed.filter((p) => p.deleted !== true).map((p) => rowFromRecord(p));
  for (const r of rows) if (r.status !== "ended") reopened(board, r.placement_id);
  if (board.state.baseline) {
    for (const r of rows) {
      const held = board.state.rows[r.placement_id];
      if (held && held.status !== "ended" && r.status === "ended") await closeOut(client, board, r.placement_id, r.updated_at);
    }
  }
  board.state.rows = Object.fromEntries(rows.map((r) => [r.placement_id, r]));
  board.state.baseline = Object.fromEntries(rows.map((r) => [r.placement_id, r.status]));
  board.save();
  console.error(`board: ${rows.length} placements, ${board.state.closed.length} closed out`);
}
