import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { CrewCallClient, type CrewRecord } from "./crewcall.ts";
import { clip, type Span, subtract, union } from "./intervals.ts";

// The dispatch desk: everything is Central time (UTC-6); a block with no end is a one-hour block;
// cancelled bookings disappear from the calendar, so every booking listed is taken.
const CENTRAL_OFFSET_MIN = -360;
const MINUTE = 60_000;

interface BoardRow {
  worker_id: string;
  first_name: string;
  last_name: string;
  window_start: string;
  window_end: string;
  minutes: number;
}

function span(r: CrewRecord): Span {
  const start = Date.parse(String(r.starts_at));
  return { start, end: start + Number(r.duration_minutes ?? 60) * MINUTE };
}

function byWorker(records: CrewRecord[]): Map<string, Span[]> {
  const out = new Map<string, Span[]>();
  for (const r of records) out.set(String(r.worker_id), [...(out.get(String(r.worker_id)) ?? []), span(r)]);
  return out;
}

const central = (ms: number) => `${new Date(ms + CENTRAL_OFFSET_MIN * MINUTE).toISOString().slice(0, 19)}-06:00`;

async function board(args: string[]): Promise<void> {
  const date = args[args.indexOf("--date") + 1];
  const config = loadConfig();
  const client = new CrewCallClient(config);
  const dayStart = Date.parse(`${date}T00:00:00Z`) - CENTRAL_OFFSET_MIN * MINUTE;
  const morning: Span = { start: dayStart + 6 * 60 * MINUTE, end: dayStart + 12 * 60 * MINUTE };

  const workers = await client.all("/partner/v1/workers");
  const availability = byWorker(await client.all("/partner/v1/availability"));
  const blocks = byWorker(await client.all("/partner/v1/blocks"));
  const bookings = byWorker(await client.all("/partner/v1/bookings"));

  const rows: BoardRow[] = [];
  for (const w of workers) {
    if (w.onboarding_status !== "active") continue;
    const id = String(w.id);
    const free = subtract(clip(union(availability.get(id) ?? []), morning), [...(blocks.get(id) ?? []), ...(bookings.get(id) ?? [])]);
    for (const s of free) {
      const minutes = Math.round((s.end - s.start) / MINUTE);
      if (minutes < 60) continue;
      rows.push({ worker_id: id, first_name: String(w.first_name), last_name: String(w.last_name), window_start: central(s.start), window_end: central(s.end), minutes });
    }
  }
  rows.sort((a, b) => (a.worker_id !== b.worker_id ? (a.worker_id < b.worker_id ? -1 : 1) : a.window_start < b.window_start ? -1 : 1));
  mkdirSync(config.outputDir, { recursive: true });
  const path = join(config.outputDir, "board.json");
  writeFileSync(`${path}.tmp`, `${JSON.stringify(rows, null, 1)}\n`);
  renameSync(`${path}.tmp`, path);
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
