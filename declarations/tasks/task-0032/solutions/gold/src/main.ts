import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readBoard } from "./board.ts";
import { census, type Placement } from "./census.ts";
import { loadConfig } from "./config.ts";
import { PlaceMintClient } from "./placemint.ts";

async function run(): Promise<void> {
  const config = loadConfig();
  const out = join(config.outputDir, "census.json");
  rmSync(out, { force: true });
  const board = readBoard(join(import.meta.dirname, "..", "input", "desk-board.csv"));
  const client = new PlaceMintClient(config);
  const book = await client.listAll<Placement>("/v2/placements");
  const rows = census(board, book);
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(`${out}.tmp`, `${JSON.stringify(rows, null, 2)}\n`);
  renameSync(`${out}.tmp`, out);
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.finding, (counts.get(r.finding) ?? 0) + 1);
  console.error([...counts].map(([f, n]) => `${f} ${n}`).join(", "));
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
