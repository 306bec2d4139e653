import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { migrate } from "./migrate.ts";
import { RosterlyClient } from "./rosterly.ts";

/** A punch as payroll's engine reads it from `punches.json`. */
interface MirroredPunch {
  id: string;
  shift_id: string;
  worker_id: string;
  kind: string;
  source: string;
  /** Rosterly sends UTC; stored with the `Z` the payroll engine expects. */
  punched_at: string;
  deleted: boolean;
}

/** The nightly copy of every punch. */
async function sync(): Promise<void> {
  const config = loadConfig();
  const rosterly = new RosterlyClient(config);
  await rosterly.login();
  const rows: MirroredPunch[] = (await rosterly.all("/api/v3/punches")).map((p) => ({
    id: p.id,
    shift_id: String(p.shift_id),
    worker_id: String(p.worker_id),
    kind: String(p.kind),
    source: String(p.source),
    punched_at: `${String(p.punched_at)}Z`,
    deleted: p.deleted === true,
  }));
  rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  mkdirSync(config.outputDir, { recursive: true });
  const file = join(config.outputDir, "punches.json");
  writeFileSync(`${file}.tmp`, `${JSON.stringify(rows, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  console.log(`copied ${rows.length} punches`);
}

/** The cutover to UTC storage (src/migrate.ts). */
async function migrateCommand(): Promise<void> {
  const config = loadConfig();
  const rosterly = new RosterlyClient(config);
  await rosterly.login();
  await migrate(config, rosterly);
}

const commands: Record<string, () => Promise<void>> = { sync, migrate: migrateCommand };
const run = commands[process.argv[2] ?? ""];
if (!run) {
  console.error(`usage: node src/main.ts ${Object.keys(commands).join("|")}`);
  process.exit(2);
}
run().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
