// GlobalHire -> analytics lake mirror. The scheduler runs `node src/main.ts sync` every night.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { GlobalHire, GlobalHireUnavailable, type VendorRecord } from "./globalhire.ts";

/**
 * The resources the lake mirrors, in the report's order, with both API versions' lists.
 * v2 is read first. The v1 lists are not all the equivalents the docs promise
 * (`/v1/candidates` stops after 500 records and says its total is 500), so v1
 * is only read to fill what a v2 list failed to return, and only counts when
 * the two together reach the total v2 announced.
 */
const RESOURCES = [
  { name: "agencies", v2: "/v2/agencies", v1: "/v1/agencies" },
  { name: "candidates", v2: "/v2/candidates", v1: "/v1/candidates" },
  { name: "placements", v2: "/v2/placements", v1: "/v1/placements" },
  { name: "timesheets", v2: "/v2/timesheets", v1: "/v1/timesheets" },
] as const;

interface MirrorRow {
  source_id: string;
  data: Record<string, unknown>;
  updated_at: unknown;
  is_deleted: boolean;
}

interface ReportEntry {
  resource: string;
  read_from: string[];
  records: number;
  archived: number;
}

/** An ISO 8601 timestamp with `Z` or an offset (GlobalHire stamps each record with its branch's offset). */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** The same instant in UTC, `Z`, without milliseconds when there are none. */
function toUtc(v: unknown): unknown {
  if (typeof v !== "string" || !TIMESTAMP.test(v)) return v;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? v : new Date(ms).toISOString().replace(".000Z", "Z");
}

function toRow(r: VendorRecord): MirrorRow {
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r)) if (k !== "id") data[k] = toUtc(v);
  // GlobalHire keeps deleted records in its lists, flagged `archived` (the docs say they vanish).
  return { source_id: String(r.id), data, updated_at: toUtc(r.updated_at), is_deleted: r.archived === true };
}

/** Reads one resource completely, or throws; says which lists it took and whether v2 alone fell short. */
async function readResource(gh: GlobalHire, res: (typeof RESOURCES)[number]): Promise<{ records: VendorRecord[]; readFrom: string[]; v2Short: boolean }> {
  const v2 = await gh.readList(res.v2);
  if (v2.total === null) throw new GlobalHireUnavailable(`${res.v2} announced no total_count: cannot tell whether the list is complete`);
  const byId = new Map<string, VendorRecord>();
  for (const r of v2.records) byId.set(String(r.id), r);
  if (byId.size >= v2.total) return { records: [...byId.values()], readFrom: [res.v2], v2Short: false };
  console.error(`${res.v2}: paged to its end, ${byId.size} of the ${v2.total} records it announced; filling from ${res.v1}`);
  const v1 = await gh.readList(res.v1);
  let filled = 0;
  for (const r of v1.records) {
    if (byId.has(String(r.id))) continue;
    byId.set(String(r.id), r);
    filled += 1;
  }
  if (byId.size < v2.total) throw new GlobalHireUnavailable(`${res.name}: v2 and v1 together returned ${byId.size} of ${v2.total} records`);
  console.error(`${res.v1}: ${v1.records.length} records, ${filled} that v2 never returned`);
  return { records: [...byId.values()], readFrom: [res.v2, res.v1], v2Short: true };
}

function writeJson(dir: string, file: string, value: unknown): void {
  const tmp = join(dir, `.${file}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(value, null, 1)}\n`);
  renameSync(tmp, join(dir, file));
}

async function sync(): Promise<void> {
  const config = loadConfig();
  const gh = new GlobalHire(config);
  const mirrors = new Map<string, MirrorRow[]>();
  const report: ReportEntry[] = [];
  const v1Dependencies: string[] = [];
  // Everything is read before anything is written: a failed run leaves last night's files.
  for (const res of RESOURCES) {
    const { records, readFrom, v2Short } = await readResource(gh, res);
    const rows = records.map(toRow).sort((a, b) => (a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0));
    mirrors.set(res.name, rows);
    report.push({ resource: res.name, read_from: readFrom, records: rows.length, archived: rows.filter((r) => r.is_deleted).length });
    if (v2Short) v1Dependencies.push(res.name);
  }
  mkdirSync(config.outputDir, { recursive: true });
  for (const [name, rows] of mirrors) writeJson(config.outputDir, `${name}.json`, rows);
  writeJson(config.outputDir, "sync_report.json", { resources: report, v1_dependencies: v1Dependencies.sort() });
  console.error(`sync: ${report.map((r) => `${r.resource} ${r.records}`).join(", ")}; v1 still needed for: ${v1Dependencies.join(", ") || "nothing"}`);
}

const command = process.argv[2];
if (command !== "sync") {
  console.error("usage: node src/main.ts sync");
  process.exit(2);
}
try {
  await sync();
} catch (err) {
  console.error(`sync failed: ${(err as Error).message}`);
  process.exit(1);
}
