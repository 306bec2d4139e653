import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { Rosterly } from "./rosterly.ts";
import { LONG_DAY_MINUTES, noteText, timesheet } from "./timesheet.ts";

async function run(): Promise<void> {
  const config = loadConfig();
  const rosterly = new Rosterly(config);
  // Agency staff are paid by their agency: their shifts stay off the bureau's timesheet.
  const agency = new Set((await rosterly.workers()).filter((w) => w.employment_type === "agency").map((w) => w.id));
  const rows = timesheet((await rosterly.shifts()).filter((s) => !agency.has(s.worker_id)));
  mkdirSync(config.outputDir, { recursive: true });
  const file = join(config.outputDir, "timesheet.json");
  writeFileSync(`${file}.tmp`, `${JSON.stringify(rows, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  let written = 0;
  for (const r of rows.filter((x) => x.minutes > LONG_DAY_MINUTES)) {
    const text = noteText(r);
    await rosterly.addNote(r.worker_id, text);
    written++;
  }
  console.log(`timesheet: ${rows.length} rows, ${written} notes written`);
}

const command = process.argv[2];
if (command !== "timesheet") {
  console.error("usage: node src/main.ts timesheet");
  process.exit(2);
}
run().catch((err) => {
  console.error(`timesheet failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
