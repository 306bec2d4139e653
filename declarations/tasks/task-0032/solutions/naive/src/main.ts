import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { type Page, PlaceMintClient } from "./placemint.ts";

/** The census as the board notes (materials/desk-board-notes.md) describe the board. */
interface Placement {
  id: string;
  status: string;
}

async function run(): Promise<void> {
  const config = loadConfig();
  const [header, ...lines] = readFileSync(join(import.meta.dirname, "..", "input", "desk-board.csv"), "utf8")
    .trimEnd()
    .split("\n");
  const cols = header.split(",");
  const board = lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [cols[i], v])) as { board_ref: string; placement_ref: string });
  board.sort((a, b) => (a.board_ref < b.board_ref ? -1 : 1));

  const client = new PlaceMintClient(config);
  const book = new Map<string, Placement>();
  for (let offset: number | null = 0; offset !== null; ) {
    const page: Page<Placement> = await client.request("GET", `/v2/placements?limit=100&offset=${offset}`);
    for (const p of page.results) book.set(p.id, p);
    offset = page.next_offset;
  }

  const booked = (p: Placement) => p.status === "confirmed" || p.status === "active";
  const rows = [];
  const named = new Set<string>();
  for (const r of board) {
    // placement_ref is PlaceMint's id; a placement PlaceMint no longer lists was deleted.
    const p = book.get(r.placement_ref);
    named.add(r.placement_ref);
    const finding = !p ? "deleted_in_book" : booked(p) ? "matched" : "not_booked";
    rows.push({ board_ref: r.board_ref, placement_id: r.placement_ref, finding, book_status: p?.status ?? null });
  }
  for (const p of [...book.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    if (booked(p) && !named.has(p.id)) rows.push({ board_ref: null, placement_id: p.id, finding: "not_on_board", book_status: p.status });
  }
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
