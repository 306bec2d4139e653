import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Bullpen } from "./bullpen.ts";
import { loadConfig } from "./config.ts";
import { ReadFailed, Staffline } from "./staffline.ts";

/** One row of the map, which is also this job's only state. */
interface Row {
  staffline_id: string;
  bullpen_id: string;
  deleted_in_staffline: boolean;
}

const MAP = "candidate-map.json";
/** The create in flight, beside the map: a run the scheduler stops leaves it, and the next one settles it. */
const SENDING = "candidate-map.sending.json";

interface Sending {
  id: string;
  payload: Record<string, unknown>;
  at: string;
}

function setSending(dir: string, value: Sending | null): void {
  mkdirSync(dir, { recursive: true });
  if (value) writeFileSync(join(dir, SENDING), JSON.stringify(value));
  else rmSync(join(dir, SENDING), { force: true });
}

function writeMap(dir: string, rows: Row[]): void {
  mkdirSync(dir, { recursive: true });
  const sorted = [...rows].sort((a, b) => (a.staffline_id < b.staffline_id ? -1 : a.staffline_id > b.staffline_id ? 1 : 0));
  const tmp = join(dir, `${MAP}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(sorted, null, 2)}\n`);
  renameSync(tmp, join(dir, MAP));
}

function readMap(dir: string): Row[] {
  const path = join(dir, MAP);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Row[]) : [];
}

const COPIED: [string, string][] = [
  ["first_name", "first_name"],
  ["last_name", "last_name"],
  ["email", "email"],
  ["city", "city"],
  ["phone", "mobile_phone"],
  ["desired_title", "current_title"],
];

/** Whether StaffLine still has a candidate: a read of the record itself decides. */
async function stillThere(staffline: Staffline, id: string): Promise<boolean> {
  try {
    await staffline.get(`/svc/candidates/${encodeURIComponent(id)}`);
    return true;
  } catch (err) {
    if (err instanceof ReadFailed && (err.status === 404 || err.status === 410)) return false;
    throw err;
  }
}

async function migrate(): Promise<void> {
  const config = loadConfig();
  const staffline = new Staffline(config.staffline);
  const bullpen = new Bullpen(config.bullpen);
  const rows = readMap(config.outputDir);
  const known = new Set(rows.map((r) => r.staffline_id));

  // Copies first: every candidate the list holds that the map lacks, one key per StaffLine id.
  const live = await staffline.listAll("/svc/candidates");
  // A create the last run was stopped in, for someone the list no longer holds: Bullpen may have stored it.
  const sendingPath = join(config.outputDir, SENDING);
  const lost = existsSync(sendingPath) ? (JSON.parse(readFileSync(sendingPath, "utf8")) as Sending) : null;
  if (lost && !known.has(lost.id) && !live.some((c) => String(c.id) === lost.id)) {
    const found = await bullpen.findCreated(lost.payload, new Date(Date.parse(lost.at) - 3_600_000).toISOString());
    if (found) rows.push({ staffline_id: lost.id, bullpen_id: found, deleted_in_staffline: true });
    if (found) known.add(lost.id);
    writeMap(config.outputDir, rows);
  }
  setSending(config.outputDir, null);
  for (const c of live) {
    const id = String(c.id);
    if (known.has(id)) continue;
    const payload: Record<string, unknown> = { branch: "TOR", source: "import" };
    for (const [from, to] of COPIED) if (c[from] !== null && c[from] !== undefined && c[from] !== "") payload[to] = c[from];
    setSending(config.outputDir, { id, payload, at: await bullpen.clock() });
    const created = await bullpen.create("/api/v2/candidates", payload, `hv-tor-migrate-${id}`);
    rows.push({ staffline_id: id, bullpen_id: String(created.id), deleted_in_staffline: false });
    known.add(id);
    writeMap(config.outputDir, rows);
    setSending(config.outputDir, null);
  }
  // Then each earlier copy the list no longer shows is read on its own: gone, or not.
  const listed = new Set(live.map((c) => String(c.id)));
  for (const r of rows) r.deleted_in_staffline = listed.has(r.staffline_id) ? false : !(await stillThere(staffline, r.staffline_id));
  writeMap(config.outputDir, rows);
  console.log(`migrate: ${rows.length} copies, ${rows.filter((r) => r.deleted_in_staffline).length} deleted in StaffLine since`);
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
