// Alt: smaller pages, assignments first, a continued crawl backs up one page instead of counting deletions from the feed.
import { loadConfig } from "./config.ts";
import { CrewCallClient, GaveUp } from "./crewcall.ts";
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

/** Records per page of a crawl. */
const PAGE = 100;

/**
 * Crawls one list by offset from where its progress stands, saving after every page. A
 * crawl a later run continues backs up one page and reads it again, so records that moved
 * up (deletions ahead of the offset) are not stepped over. Records already held that turn
 * up on any later page mean others were put in ahead of the offset: the head of the list is
 * read again at the end, in pages as large as that shift, until a page brings nothing new.
 */
async function crawl(client: CrewCallClient, list: List, rows: Map<string, Row>, state: BackfillState, save: () => void): Promise<void> {
  const progress = state.lists[list.file];
  let overlap = false;
  if (state.resumed && !progress.done && progress.offset > 0) {
    progress.offset = Math.max(0, progress.offset - PAGE);
    overlap = true;
  }
  let shifted = 0;
  while (!progress.done) {
    const page = await client.page(list.path, progress.offset, PAGE, list.extra);
    for (const r of page) {
      if (rows.has(String(r.id)) && !overlap) shifted += 1;
      rows.set(String(r.id), toRow(r));
    }
    overlap = false;
    progress.offset += page.length;
    progress.done = page.length < PAGE;
    save();
  }
  if (shifted === 0) return;
  const size = Math.min(PAGE, shifted);
  for (let offset = 0; ; offset += size) {
    const page = await client.page(list.path, offset, size, list.extra);
    const fresh = page.filter((r) => !rows.has(String(r.id)));
    for (const r of page) rows.set(String(r.id), toRow(r));
    save();
    if (fresh.length === 0 || page.length < size) break;
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
    for (const l of [...LISTS].reverse()) {
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
