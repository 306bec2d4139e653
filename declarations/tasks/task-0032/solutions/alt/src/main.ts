import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { placementOf, readBoard } from "./board.ts";
import { census, type Placement } from "./census.ts";
import { loadConfig } from "./config.ts";
import { PlaceMintClient } from "./placemint.ts";

/**
 * The census, looking each board reference up by id (a 404 is a placement PlaceMint never
 * had), then listing the book for the placements no board row names.
 */
async function run(): Promise<void> {
  const config = loadConfig();
  const board = readBoard(join(import.meta.dirname, "..", "input", "desk-board.csv"));
  const client = new PlaceMintClient(config);
  const looked = new Map<string, Placement | null>();
  for (const row of board) {
    const id = placementOf(row.placement_ref);
    if (!id || looked.has(id)) continue;
    looked.set(id, await client.getOrNull<Placement>(`/v2/placements/${encodeURIComponent(id)}`));
  }
  const listed = await client.listAll<Placement>("/v2/placements");
  const book = new Map<string, Placement>(listed.map((p) => [p.id, p]));
  for (const [id, p] of looked) if (p) book.set(id, p);
  const rows = census(
    board,
    [...book.values()].filter((p) => looked.get(p.id) !== null),
  );
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, "census.json"), `${JSON.stringify(rows, null, 2)}\n`);
}

const command = process.argv[2];
if (command !== "census") {
  console.error("usage: node src/main.ts census");
  process.exit(2);
}
run().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
