import { loadConfig } from "./config.ts";
import { CrewCallClient, PAGE_SIZE, type CrewRecord } from "./crewcall.ts";
import { toRow, writeMirror, type Row } from "./mirror.ts";

/** The lists the ledger mirrors, and the file each one fills. */
const LISTS = [
  { path: "/partner/v1/workers", file: "workers.json" },
  { path: "/partner/v1/gigs", file: "gigs.json" },
  { path: "/partner/v1/assignments", file: "assignments.json" },
];

/** Every record of a list, page by page. */
async function readAll(client: CrewCallClient, path: string): Promise<CrewRecord[]> {
  const all: CrewRecord[] = [];
  const seen = new Set<string>();
  for (let offset = 0; ; ) {
    const page = await client.page(path, offset);
    // A page that starts with a record we already have means we went past the end.
    if (page.length === 0 || seen.has(String(page[0].id))) return all;
    for (const r of page) seen.add(String(r.id));
    all.push(...page);
    offset += page.length;
    if (page.length < PAGE_SIZE) return all;
  }
}

/** Reads every worker, gig and assignment and writes the three mirrors from scratch. */
async function backfill(): Promise<void> {
  const config = loadConfig();
  const client = new CrewCallClient(config);
  for (const { path, file } of LISTS) {
    const rows = new Map<string, Row>();
    for (const r of await readAll(client, path)) rows.set(String(r.id), toRow(r));
    writeMirror(config.outputDir, file, rows);
    console.error(`backfill: ${rows.size} rows in ${file}`);
  }
}

const command = process.argv[2];
const commands: Record<string, () => Promise<void>> = { backfill };
if (!commands[command]) {
  console.error("usage: node src/main.ts backfill");
  process.exit(2);
}
commands[command]().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
