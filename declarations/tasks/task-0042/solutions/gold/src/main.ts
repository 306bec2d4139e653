import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { CrewCallClient, type CrewRecord } from "./crewcall.ts";
import { clip, type Span, subtract, union } from "./intervals.ts";
import { LocalTime } from "./local-time.ts";

const ZONE = "America/Chicago";
const MORNING_FROM = 6;
const MORNING_UNTIL = 12;
const SHORTEST_MIN = 60;
const MINUTE = 60_000;

interface BoardRow {
  worker_id: string;
  first_name: string;
  last_name: string;
  window_start: string;
  window_end: string;
  minutes: number;
}

/** A calendar entry as a span; a duration of null runs on with no end. */
function span(r: CrewRecord): Span {
  const start = Date.parse(String(r.starts_at));
  const d = r.duration_minutes;
  return { start, end: d === null || d === undefined ? Number.POSITIVE_INFINITY : start + Number(d) * MINUTE };
}

function byWorker(records: CrewRecord[]): Map<string, Span[]> {
  const out = new Map<string, Span[]>();
  for (const r of records) {
    const id = String(r.worker_id);
    out.set(id, [...(out.get(id) ?? []), span(r)]);
  }
  return out;
}

function parseDate(args: string[]): string {
  const i = args.indexOf("--date");
  const date = i >= 0 ? args[i + 1] : undefined;
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
    console.error("usage: node src/main.ts board --date YYYY-MM-DD");
    process.exit(2);
  }
  return date;
}

/** The bookable stretches of every cleared worker on the morning of `date`, Chicago time. */
async function board(args: string[]): Promise<void> {
  const date = parseDate(args);
  const config = loadConfig();
  const client = new CrewCallClient(config);
  const local = new LocalTime(ZONE);
  const morning: Span = { start: local.instant(date, MORNING_FROM), end: local.instant(date, MORNING_UNTIL) };

  const workers = await client.all("/partner/v1/workers");
  const availability = byWorker(await client.all("/partner/v1/availability"));
  const blocks = byWorker(await client.all("/partner/v1/blocks"));
  const bookings = byWorker((await client.all("/partner/v1/bookings")).filter((b) => b.status === "held" || b.status === "booked"));

  const rows: BoardRow[] = [];
  for (const w of workers) {
    if (w.onboarding_status !== "active") continue;
    const id = String(w.id);
    const free = subtract(clip(union(availability.get(id) ?? []), morning), [...(blocks.get(id) ?? []), ...(bookings.get(id) ?? [])]);
    for (const s of free) {
      const minutes = Math.round((s.end - s.start) / MINUTE);
      if (minutes < SHORTEST_MIN) continue;
      rows.push({
        worker_id: id,
        first_name: String(w.first_name),
        last_name: String(w.last_name),
        window_start: local.format(s.start),
        window_end: local.format(s.end),
        minutes,
      });
    }
  }
  rows.sort((a, b) => (a.worker_id !== b.worker_id ? (a.worker_id < b.worker_id ? -1 : 1) : Date.parse(a.window_start) - Date.parse(b.window_start)));

  mkdirSync(config.outputDir, { recursive: true });
  const path = join(config.outputDir, "board.json");
  writeFileSync(`${path}.tmp`, `${JSON.stringify(rows, null, 1)}\n`);
  renameSync(`${path}.tmp`, path);
  console.error(`board: ${rows.length} windows for ${new Set(rows.map((r) => r.worker_id)).size} workers on ${date}`);
}

const [command, ...rest] = process.argv.slice(2);
if (command !== "board") {
  console.error("usage: node src/main.ts board --date YYYY-MM-DD");
  process.exit(2);
}
board(rest).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
