import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { type CrewRecord, readAll } from "./crewcall.ts";

// A minute-by-minute picture of the morning per worker: 360 slots, each free, or not.
const SLOTS = 360;
const MINUTE = 60_000;

/** The instant Chicago's clock reads 06:00 on `date`: tried at UTC-5 and UTC-6, kept where the wall clock agrees. */
function sixAm(date: string): number {
  const fmt = new Intl.DateTimeFormat("en-GB", { timeZone: "America/Chicago", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  for (const hours of [5, 6]) {
    const t = Date.parse(`${date}T${String(6 + hours).padStart(2, "0")}:00:00Z`);
    if (fmt.format(new Date(t)) === "06:00") return t;
  }
  throw new Error(`cannot place 06:00 in Chicago on ${date}`);
}

function mark(slots: boolean[], from: number, r: CrewRecord, value: boolean): void {
  const start = Date.parse(String(r.starts_at));
  const end = r.duration_minutes == null ? Number.POSITIVE_INFINITY : start + Number(r.duration_minutes) * MINUTE;
  const a = Math.max(0, Math.ceil((start - from) / MINUTE));
  const b = Math.min(SLOTS, Math.ceil((end - from) / MINUTE));
  for (let i = a; i < b; i++) slots[i] = value;
}

async function main(): Promise<void> {
  const [command, flag, date] = process.argv.slice(2);
  if (command !== "board" || flag !== "--date" || !/^\d{4}-\d{2}-\d{2}$/.test(date ?? "")) {
    console.error("usage: node src/main.ts board --date YYYY-MM-DD");
    process.exit(2);
  }
  const config = loadConfig();
  const from = sixAm(date);
  const [workers, availability, blocks, bookings] = await Promise.all(["workers", "availability", "blocks", "bookings"].map((p) => readAll(config, `/partner/v1/${p}`)));
  const active = new Map(workers.filter((w) => w.onboarding_status === "active").map((w) => [String(w.id), w]));
  const grid = new Map<string, boolean[]>();
  const slotsOf = (id: string) => grid.get(id) ?? grid.set(id, new Array<boolean>(SLOTS).fill(false)).get(id)!;
  for (const r of availability) if (active.has(String(r.worker_id))) mark(slotsOf(String(r.worker_id)), from, r, true);
  for (const r of [...blocks, ...bookings.filter((b) => b.status === "held" || b.status === "booked")]) if (grid.has(String(r.worker_id))) mark(slotsOf(String(r.worker_id)), from, r, false);

  const rows = [];
  for (const id of [...grid.keys()].sort()) {
    const slots = grid.get(id)!;
    const w = active.get(id)!;
    for (let i = 0; i < SLOTS; ) {
      if (!slots[i]) {
        i++;
        continue;
      }
      let j = i;
      while (j < SLOTS && slots[j]) j++;
      if (j - i >= 60) {
        rows.push({
          worker_id: id,
          first_name: w.first_name,
          last_name: w.last_name,
          window_start: new Date(from + i * MINUTE).toISOString(),
          window_end: new Date(from + j * MINUTE).toISOString(),
          minutes: j - i,
        });
      }
      i = j;
    }
  }
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, "board.json"), JSON.stringify(rows));
}

main().catch((err) => {
  console.error(String(err));
  process.exit(1);
});
