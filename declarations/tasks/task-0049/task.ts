import { z } from "zod";
import { defineTask } from "../../schema/task.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ConnectorRun, Snapshot } from "../../../evidence/verdict.ts";
import { byLabel, fewIds, outputRows, plumbing } from "../shared/judging.ts";
import { objects } from "../shared/rows.ts";

export const ROLE = "rota";
/** Head office edits the rota while the job reads it: the shifts list moves under an offset crawl. */
export const NIGHT_FAULTS = ["rl-shifts-drift"];
const FILE = "night_ledger.json";
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** The days Rosterly's rota covers; each venue's clocks go back on one of them. */
const FIRST_DAY = Date.UTC(2025, 9, 20);
const LAST_DAY = Date.UTC(2025, 10, 9);
/** Statuses of shifts that reached the floor. */
const ON_FLOOR = new Set(["published", "in_progress", "completed"]);

const RUN_OK = "`node src/main.ts ledger` exits 0 once `night_ledger.json` is written under `OUTPUT_DIR`.";
const TRUE = "The ledger must be true to Rosterly's rota for every venue and every hour of its night.";
const TWICE = "The ledger has one row for every hour of that night as it really passed at the venue, including an hour the clock showed twice";
const OWN_NIGHT = "Each venue's night is the night its own clocks go back this autumn";
const FIRST = "A start the shift's clock showed twice (a shift rostered to start at 01:30 on 26 October in London) is the first of the two";

export interface LedgerRow {
  venue_id: string;
  hour_start: string;
  shifts_on: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at an instant, in milliseconds (one formatter per zone). */
function offsetMs(instantMs: number, timeZone: string): number {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
    formats.set(timeZone, f);
  }
  const parts = f.formatToParts(new Date(instantMs));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second")) - instantMs;
}

/** A wall-clock text as milliseconds on a UTC-like scale, or null. */
function wallMs(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0)) : null;
}

/** The earliest instant a zone's clock showed this wall time (the first of two on a fall-back night); null when it never did or the zone is unknown. */
export function firstInstant(wall: number, timeZone: string): number | null {
  try {
    const candidates = [offsetMs(wall - 12 * HOUR, timeZone), offsetMs(wall + 12 * HOUR, timeZone)].map((o) => wall - o).filter((t) => t + offsetMs(t, timeZone) === wall);
    return candidates.length ? Math.min(...candidates) : null;
  } catch {
    return null;
  }
}

/** An instant as the zone's clock showed it, with the offset then. */
export function withOffset(instantMs: number, timeZone: string): string {
  const off = Math.round(offsetMs(instantMs, timeZone) / 60_000);
  const wall = new Date(instantMs + off * 60_000).toISOString().slice(0, 19);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${wall}${off < 0 ? "-" : "+"}${pad(Math.trunc(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
}

/** The venue-local date (as UTC midnight ms) whose day lasts 25 hours: the night the clocks go back. */
export function fallBackDay(timeZone: string): number | null {
  for (let d = FIRST_DAY; d <= LAST_DAY; d += DAY) {
    const start = firstInstant(d, timeZone);
    const end = firstInstant(d + DAY, timeZone);
    if (start !== null && end !== null && end - start === 25 * HOUR) return d;
  }
  return null;
}

/** Each live venue's night, hour by real hour, with the shifts that ran during some part of it. */
export function expectedLedger(s: Snapshot): LedgerRow[] {
  const shifts = (s.entities.shift ?? [])
    .filter((r) => !r.deleted && ON_FLOOR.has(String(r.record.status)))
    .map((r) => {
      const wall = wallMs(String(r.record.starts_at ?? ""));
      const start = wall === null ? null : firstInstant(wall, String(r.record.venue_tz));
      return { venue: String(r.record.venue_id), start, end: start === null ? null : start + Number(r.record.duration_minutes) * 60_000 };
    });
  const rows: LedgerRow[] = [];
  const venues = (s.entities.venue ?? []).filter((r) => !r.deleted).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const v of venues) {
    const tz = String(v.record.venue_tz);
    const day = fallBackDay(tz);
    if (day === null) continue;
    const from = firstInstant(day, tz)!;
    const to = firstInstant(day + 6 * HOUR, tz)!;
    for (let t = from; t < to; t += HOUR) {
      const on = shifts.filter((x) => x.venue === v.id && x.start !== null && x.end !== null && x.start < t + HOUR && x.end > t).length;
      rows.push({ venue_id: v.id, hour_start: withOffset(t, tz), shifts_on: on });
    }
  }
  return rows;
}

/** An hour's start in one spelling: seconds written out, `Z` as `+00:00`, the offset with its colon. */
export function canonicalHour(text: unknown): string {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(?::00(?:\.0+)?)?(Z|[+-]\d{2}:?\d{2})$/.exec(String(text ?? ""));
  if (!m) return String(text);
  const off = m[2] === "Z" ? "+00:00" : m[2].includes(":") ? m[2] : `${m[2].slice(0, 3)}:${m[2].slice(3)}`;
  return `${m[1]}:00${off}`;
}

const key = (r: LedgerRow) => `${r.venue_id} ${canonicalHour(r.hour_start)} ${r.shifts_on}`;

function judgeLedger(c: CheckRecorder, run: ConnectorRun, truth: Snapshot): void {
  const rows = objects(outputRows<LedgerRow>(run, FILE)) as LedgerRow[];
  const want = expectedLedger(truth);
  const got = rows.map(key);
  const expected = want.map(key);
  const missing = expected.filter((k) => !got.includes(k));
  const extra = got.filter((k) => !expected.includes(k));
  const ordered = got.length === expected.length && got.every((k, i) => k === expected[i]);
  const ok = !missing.length && !extra.length && ordered;
  c.check("ledger_true", ok, {
    basis: { ticket: TRUE },
    pass: 2,
    mandatory: true,
    level: "l1",
    detail: ok
      ? `${want.length} rows over ${new Set(want.map((r) => r.venue_id)).size} venues, ${want.reduce((n, r) => n + r.shifts_on, 0)} shift-hours`
      : [
          missing.length && `${missing.length} rows missing or wrong (${fewIds(missing)})`,
          extra.length && `${extra.length} rows not expected (${fewIds(extra)})`,
          !missing.length && !extra.length && "rows not in the order asked",
        ]
          .filter(Boolean)
          .join("; "),
  });

  // What the three rules ask, each on its own, to say which one a ledger misses.
  const byVenue = (list: LedgerRow[]) => {
    const m = new Map<string, LedgerRow[]>();
    for (const r of list) m.set(String(r.venue_id), [...(m.get(String(r.venue_id)) ?? []), r]);
    return m;
  };
  const mine = byVenue(rows);
  const theirs = byVenue(want);
  const hoursOf = (list: LedgerRow[] | undefined) => (list ?? []).map((r) => canonicalHour(r.hour_start)).join(",");
  const dayOf = (list: LedgerRow[] | undefined) => String(list?.[0]?.hour_start ?? "").slice(0, 10);
  const wrongNight = [...theirs].filter(([v, list]) => dayOf(mine.get(v)) !== dayOf(list)).map(([v, list]) => `${v} (${dayOf(list)})`);
  c.check("each_venue_on_its_own_night", wrongNight.length === 0, {
    basis: { ticket: OWN_NIGHT },
    level: "l1",
    detail: wrongNight.length ? `${wrongNight.length} venues' ledgers are not on the night their clocks went back: ${fewIds(wrongNight)}` : "every venue's ledger is on its own fall-back night",
  });
  const wrongHours = [...theirs].filter(([v, list]) => dayOf(mine.get(v)) === dayOf(list) && hoursOf(mine.get(v)) !== hoursOf(list)).map(([v]) => v);
  c.check("every_real_hour_listed", wrongHours.length === 0, {
    basis: { ticket: TWICE },
    level: "l1",
    detail: wrongHours.length
      ? `${wrongHours.length} venues' nights do not list each real hour once, the repeated one twice with its two offsets: ${fewIds(wrongHours)}`
      : "every night lists each hour as it passed, the repeated hour twice",
  });
  const ambiguous = (truth.entities.shift ?? []).filter((r) => {
    const wall = wallMs(String(r.record.starts_at ?? ""));
    if (r.deleted || wall === null || !ON_FLOOR.has(String(r.record.status))) return false;
    const tz = String(r.record.venue_tz);
    const next = firstInstant(wall + HOUR, tz);
    return next !== null && firstInstant(wall, tz) !== next - HOUR;
  });
  const venues = new Set(ambiguous.map((r) => String(r.record.venue_id)));
  const off = [...venues].filter((v) => theirs.has(v) && hoursOf(mine.get(v)) === hoursOf(theirs.get(v)) && (mine.get(v) ?? []).map(key).join() !== (theirs.get(v) ?? []).map(key).join());
  c.check("repeated_hour_starts_read_as_first", off.length === 0, {
    basis: { ticket: FIRST },
    level: "l1",
    detail: off.length
      ? `venues with a start in a repeated hour whose counts are off: ${fewIds(off)}`
      : ambiguous.length
        ? `${ambiguous.length} shifts start in a repeated hour; their venues' counts are right where the hours are`
        : "no shift on the floor starts in a repeated hour",
  });
}

export default defineTask({
  id: "task-0049",
  title: "Linden Hotels' night ledger for the night the clocks go back: every real hour once, each venue on its own night, repeated-hour starts read as the first",
  kind: "fix",
  roles: { [ROLE]: { vendor: "rosterly", checkpoint: 1 } },
  seed: 449,
  docsProfile: "true",
  surfaces: ["polling"],
  primaryMechanic: "dst_fallback_double_count",
  entry: { command: ["node", "src/main.ts"], subcommands: ["ledger"] },
  outputs: {
    [FILE]: jsonRows(z.looseObject({ venue_id: z.string(), hour_start: z.string(), shifts_on: z.number().int() })),
  },
  timeLimitS: 30,
  scenarios: [
    {
      name: "fall_back_night",
      judge: (e, c) => {
        const run = byLabel(e, "ledger");
        if (!plumbing(c, "ledger_exit_ok", run, [FILE], { ticket: RUN_OK })) return;
        judgeLedger(c, run!, e.snapshots.end[ROLE]);
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "Keep the API user's password out of URLs.",
    no_secrets_echoed_to_vendor: "Keep the API user's password out of URLs.",
  },
});
