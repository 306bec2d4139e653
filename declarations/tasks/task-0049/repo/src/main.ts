import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { nightLedger, type Shift, type Venue } from "./ledger.ts";
import { Rosterly } from "./rosterly.ts";

async function run(): Promise<void> {
  const config = loadConfig();
  const rosterly = new Rosterly(config);
  const venues = await rosterly.list<Venue>("/api/v3/venues");
  const shifts = await rosterly.list<Shift>("/api/v3/shifts");
  const rows = nightLedger(venues, shifts);
  mkdirSync(config.outputDir, { recursive: true });
  const file = join(config.outputDir, "night_ledger.json");
  writeFileSync(`${file}.tmp`, `${JSON.stringify(rows, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  console.log(`ledger: ${rows.length} rows for ${new Set(rows.map((r) => r.venue_id)).size} venues`);
}

if (process.argv[2] !== "ledger") {
  console.error("usage: node src/main.ts ledger");
  process.exit(2);
}
run().catch((err) => {
  console.error(`ledger failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
