import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Bullpen } from "./bullpen.ts";
import { loadConfig } from "./config.ts";
import { Staffline } from "./staffline.ts";

/** What earlier runs copied: StaffLine id -> Bullpen id. */
interface State {
  copies: Record<string, string>;
}

const STATE = "migrate-state.json";
const MAP = "candidate-map.json";

function writeJson(dir: string, file: string, value: unknown): void {
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `${file}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(tmp, join(dir, file));
}

function readState(dir: string): State {
  const path = join(dir, STATE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as State) : { copies: {} };
}

/** The Bullpen candidate for a StaffLine one: the fields Bullpen takes, those StaffLine has no value for left out. */
function toBullpen(c: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { branch: "TOR", source: "import" };
  const fields: [string, string][] = [
    ["first_name", "first_name"],
    ["last_name", "last_name"],
    ["email", "email"],
    ["city", "city"],
    ["phone", "mobile_phone"],
    ["desired_title", "current_title"],
  ];
  for (const [from, to] of fields) if (c[from] !== null && c[from] !== undefined && c[from] !== "") out[to] = c[from];
  return out;
}

async function migrate(): Promise<void> {
  const config = loadConfig();
  const staffline = new Staffline(config.staffline);
  const bullpen = new Bullpen(config.bullpen);
  const state = readState(config.outputDir);

  // The docs: `include_deleted=true` lists deleted candidates too, marked `deleted: true`.
  const all = await staffline.listAll("/svc/candidates", { include_deleted: "true" });
  const live = all.filter((c) => c.deleted !== true);
  const deleted = new Set(all.filter((c) => c.deleted === true).map((c) => String(c.id)));
  const todo = live.filter((c) => !state.copies[String(c.id)]).sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1));
  for (const c of todo) {
    const id = String(c.id);
    // The key is the StaffLine id: the same on a retry, on a rerun after a crash, on every later night.
    const created = await bullpen.create("/api/v2/candidates", toBullpen(c), `hv-tor-migrate-${id}`);
    state.copies[id] = String(created.id);
    writeJson(config.outputDir, STATE, state);
  }

  const rows = Object.entries(state.copies)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([stafflineId, bullpenId]) => ({ staffline_id: stafflineId, bullpen_id: bullpenId, deleted_in_staffline: deleted.has(stafflineId) }));
  writeJson(config.outputDir, STATE, state);
  writeJson(config.outputDir, MAP, rows);
  console.log(`migrate: ${todo.length} candidates copied this run, ${rows.length} in all, ${rows.filter((r) => r.deleted_in_staffline).length} since deleted in StaffLine`);
}

const command = process.argv[2];
if (command !== "migrate") {
  console.error("usage: node src/main.ts migrate");
  process.exit(2);
}
migrate().catch((err) => {
  console.error(`migrate: ${(err as Error).message}`);
  process.exit(1);
});
