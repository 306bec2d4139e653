import { Board, rowFromRecord } from "./board.ts";
import type { Config } from "./config.ts";
import { PlaceMintClient } from "./placemint.ts";

export const CLOSE_AUTHOR = "Delivery desk";
export const closeBody = (id: string, endedAt: string) => `Closed out by the delivery desk: ${id} has ended (${endedAt}).`;

/**
 * Reads every placement (with fees) page by page, closes out what the board held as not ended
 * and PlaceMint has as ended, and writes the board.
 */
export async function sync(config: Config): Promise<void> {
  const client = new PlaceMintClient(config);
  const board = new Board(config.outputDir);
  const rows = (await client.pages<Record<string, unknown>>("/v2/placements", "&include_fees=true")).map(rowFromRecord);
  const held = board.state.rows;
  const first = Object.keys(held).length === 0;
  for (const r of rows) {
    const before = held[r.placement_id];
    if (first || !before || before.status === "ended" || r.status !== "ended") continue;
    await client.request("POST", "/v2/notes", { placement_id: r.placement_id, body: closeBody(r.placement_id, r.updated_at), author: CLOSE_AUTHOR, visibility: "agency" });
  }
  board.state.rows = Object.fromEntries(rows.map((r) => [r.placement_id, r]));
  board.save();
  console.error(`board: ${rows.length} placements`);
}
