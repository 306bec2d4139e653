// Naive: written from the (honest) docs: retries, Retry-After, order_by, expand, resume by the stored offset and a catch-up from the first run's start. It trusts offsets to stay put.
import { loadConfig } from "./config.ts";
import { CrewCallClient, GaveUp, PAGE_SIZE } from "./crewcall.ts";
import { readMirror, toRow, writeMirror, type Row } from "./mirror.ts";
import { type BackfillState, readState, writeState } from "./progress.ts";

/** The lists the ledger mirrors: the file each fills, the deletions feed's name for it, what each page must ask for. */
const LISTS = [
  { path: "/partner/v1/workers", file: "workers.json", object: "worker", extra: {} },
  // The gig board pages stably only when sorted.
  { path: "/partner/v1/gigs", file: "gigs.json", object: "gig", extra: { order_by: "id" } },
  // Assignments carry minutes_worked only with the timesheet expansion.
  { path: "/partner/v1/assignments", file: "assignments.json", object: "assignment", extra: { expand: "timesheet" } },
] as const;
type List = (typeof LISTS)[number];

const DELETIONS = "/partner/v1/deletions";

/** Crawls one list by offset from where its progress stands, saving after every page. */
async function crawl(client: CrewCallClient, list: List, rows: Map<string, Row>, state: BackfillState, save: () => void): Promise<void> {
  const progress = state.lists[list.file];
  while (!progress.done) {
    const page = await client.page(list.path, progress.offset, PAGE_SIZE, list.extra);
    for (const r of page) rows.set(String(r.id), toRow(r));
    progress.offset += page.length;
    progress.done = page.length < PAGE_SIZE;
    save();
  }
}

/** The ids of each kind CrewCall deleted at or after `since`. */
async function deletedSince(client: CrewCallClient, since: string): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  for (const d of await client.all(DELETIONS, { changed_since: since })) {
    const kind = String(d.object);
    if (!out.has(kind)) out.set(kind, new Set());
    out.get(kind)!.add(String(d.id));
  }
  return out;
}

/** Reads every worker, gig and assignment and writes the mirrors, continuing a back-fill a previous run left part-way. */
async function backfill(): Promise<void> {
  const config = loadConfig();
  const client = new CrewCallClient(config);
  const previous = readState(config.outputDir);
  const continuing = previous !== null && !previous.finished;
  const state: BackfillState = continuing
    ? { ...previous, resumed: true }
    : { startedAt: null, resumed: false, finished: false, lists: Object.fromEntries(LISTS.map((l) => [l.file, { offset: 0, done: false }])) };
  const mirrors = new Map(LISTS.map((l) => [l.file, continuing ? readMirror(config.outputDir, l.file) : new Map<string, Row>()]));
  const save = () => {
    if (state.startedAt === null) state.startedAt = client.firstServerTime;
    for (const l of LISTS) writeMirror(config.outputDir, l.file, mirrors.get(l.file)!);
    writeState(config.outputDir, state);
  };

  try {
    for (const l of LISTS) {
      await crawl(client, l, mirrors.get(l.file)!, state, save);
    }
    if (state.resumed && state.startedAt) {
      // The back-fill spanned runs: catch up with what changed, appeared or was deleted since it began.
      for (const l of LISTS) {
        const rows = mirrors.get(l.file)!;
        for (const r of await client.all(l.path, { ...l.extra, changed_since: state.startedAt })) rows.set(String(r.id), toRow(r));
      }
      const deleted = await deletedSince(client, state.startedAt);
      for (const l of LISTS) {
        const rows = mirrors.get(l.file)!;
        for (const id of deleted.get(l.object) ?? []) {
          const row = rows.get(id);
          if (row) row.is_deleted = true;
        }
      }
    }
  } catch (err) {
    save();
    throw err;
  }
  state.finished = true;
  save();
  for (const l of LISTS) console.error(`backfill: ${mirrors.get(l.file)!.size} rows in ${l.file}`);
}

const command = process.argv[2];
const commands: Record<string, () => Promise<void>> = { backfill };
if (!commands[command]) {
  console.error("usage: node src/main.ts backfill");
  process.exit(2);
}
commands[command]().catch((err) => {
  console.error(err instanceof GaveUp ? `backfill stopped, the next run continues: ${err.message}` : err instanceof Error ? err.message : err);
  process.exit(1);
});
