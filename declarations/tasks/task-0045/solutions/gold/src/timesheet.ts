/** The pay week, Monday to Sunday, as calendar days at each venue. */
export const WEEK = ["2025-10-20", "2025-10-21", "2025-10-22", "2025-10-23", "2025-10-24", "2025-10-25", "2025-10-26"];
export const LONG_DAY_MINUTES = 480;

export interface Row {
  worker_id: string;
  date: string;
  venue_id: string;
  minutes: number;
}

/** The zone's offset from UTC at an instant, in milliseconds. */
function offsetMs(instantMs: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(instantMs));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second")) - instantMs;
}

/** The instant of a wall-clock time (`YYYY-MM-DDTHH:MM[:SS]`) at a venue, through the zone's rules on that date. */
export function instantOf(local: string, timeZone: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
  if (!m) throw new Error(`not a wall-clock time: ${local}`);
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0));
  const first = wall - offsetMs(wall, timeZone);
  return wall - offsetMs(first, timeZone);
}

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** Completed, live shifts split at their venue's midnight by real minutes, summed per worker, day and venue, inside the week. */
export function timesheet(shifts: Record<string, string>[]): Row[] {
  const week = new Set(WEEK);
  const sums = new Map<string, Row>();
  const add = (s: Record<string, string>, date: string, minutes: number) => {
    if (!week.has(date) || minutes <= 0) return;
    const key = `${s.worker_id}|${date}|${s.venue_id}`;
    const row = sums.get(key) ?? { worker_id: s.worker_id, date, venue_id: s.venue_id, minutes: 0 };
    row.minutes += minutes;
    sums.set(key, row);
  };
  for (const s of shifts) {
    if (s.status !== "completed" || s.deleted === "true") continue;
    if (/(Z|[+-]\d{2}:?\d{2})$/.test(s.starts_at)) throw new Error(`shift ${s.id}: starts_at ${s.starts_at} carries an offset; expected the venue's wall-clock time`);
    const date = s.starts_at.slice(0, 10);
    const start = instantOf(s.starts_at, s.venue_tz);
    const midnight = instantOf(`${nextDay(date)}T00:00`, s.venue_tz);
    const total = Number(s.duration_minutes);
    const first = Math.min(total, Math.round((midnight - start) / 60_000));
    add(s, date, first);
    add(s, nextDay(date), total - first);
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...sums.values()].sort((a, b) => cmp(a.worker_id, b.worker_id) || cmp(a.date, b.date) || cmp(a.venue_id, b.venue_id));
}

export const noteText = (r: Row) => `Long day: ${r.minutes} minutes at ${r.venue_id} on ${r.date} (pay week ${WEEK[0]})`;
