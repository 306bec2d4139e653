import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Bullpen } from "./bullpen.ts";
import { loadConfig } from "./config.ts";
import { Staffline } from "./staffline.ts";

/** What earlier runs copied (StaffLine id -> Bullpen id), and the create in flight when a run was stopped. */
interface State {
  copies: Record<string, string>;
  sending?: { id: string; payload: Record<string, unknown>; at: string } | null;
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

  // StaffLine's list holds live candidates only (deleted ones are not flagged in it, whatever the docs say).
  const live = await staffline.listAll("/svc/candidates");
  const liveIds = new Set(live.map((c) => String(c.id)));
  // A create an earlier run was stopped in: sent again below if StaffLine still has the person (the
  // same key returns what Bullpen stored), else looked for, as StaffLine deleted them meanwhile.
  const lost = state.sending;
  if (lost && !state.copies[lost.id] && !liveIds.has(lost.id)) {
    const found = await bullpen.findCreated(lost.payload, new Date(Date.parse(lost.at) - 3_600_000).toISOString());
    if (found) state.copies[lost.id] = found;
  }
  state.sending = null;
  const todo = live.filter((c) => !state.copies[String(c.id)]).sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1));
  for (const c of todo) {
    const id = String(c.id);
    const payload = toBullpen(c);
    state.sending = { id, payload, at: await bullpen.clock() };
    writeJson(config.outputDir, STATE, state);
    // The key is the StaffLine id: the same on a retry, on a rerun after a crash, on every later night.
    const created = await bullpen.create("/api/v2/candidates", payload, `hv-tor-migrate-${id}`);
    state.copies[id] = String(created.id);
    state.sending = null;
    writeJson(config.outputDir, STATE, state);
  }

  const rows = Object.entries(state.copies)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([stafflineId, bullpenId]) => ({ staffline_id: stafflineId, bullpen_id: bullpenId, deleted_in_staffline: !liveIds.has(stafflineId) }));
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
