// GlobalHire -> analytics lake mirror. The scheduler runs `node src/main.ts sync` every night.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { GlobalHire, type VendorRecord } from "./globalhire.ts";

/**
 * The four lists, all on v2: the docs mark v1 deprecated with "the same records
 * and paging", and GlobalHire's retirement notice calls v2 a complete replacement.
 */
const RESOURCES = [
  { name: "agencies", path: "/v2/agencies", cursor: false },
  { name: "candidates", path: "/v2/candidates", cursor: false },
  { name: "placements", path: "/v2/placements", cursor: false },
  { name: "timesheets", path: "/v2/timesheets", cursor: true },
];

interface MirrorRow {
  source_id: string;
  data: Record<string, unknown>;
  updated_at: unknown;
  is_deleted: boolean;
}

/**
 * The docs say timestamps are UTC (`Z`) and deleted records are removed from
 * lists, so every listed record is live and its values can be kept as served.
 */
function toRow(r: VendorRecord): MirrorRow {
  const { id, ...data } = r;
  return { source_id: String(id), data, updated_at: r.updated_at, is_deleted: false };
}

async function sync(): Promise<void> {
  const config = loadConfig();
  const gh = new GlobalHire(config);
  mkdirSync(config.outputDir, { recursive: true });
  const report = [];
  for (const res of RESOURCES) {
    const records = res.cursor ? await gh.cursorList(res.path) : await gh.offsetList(res.path);
    const rows = records.map(toRow).sort((a, b) => (a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0));
    writeFileSync(join(config.outputDir, `${res.name}.json`), JSON.stringify(rows, null, 1));
    report.push({ resource: res.name, read_from: [res.path], records: rows.length, archived: 0 });
  }
  // Every resource was read from v2, which the docs say returns everything.
  writeFileSync(join(config.outputDir, "sync_report.json"), JSON.stringify({ resources: report, v1_dependencies: [] }, null, 1));
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
