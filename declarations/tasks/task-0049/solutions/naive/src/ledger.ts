import { instantOf, withOffset } from "./local-time.ts";

/** Rosterly's rota covers these days; each venue's clocks go back on one of them. */
const ROTA_FROM = "2025-10-20";
const ROTA_TO = "2025-11-09";
const HOUR = 3_600_000;
const DAY = 86_400_000;
const ON_FLOOR = new Set(["published", "in_progress", "completed"]);

export interface Venue {
  id: string;
  venue_tz: string;
  deleted?: boolean;
}

export interface Shift {
  id: string;
  venue_id: string;
  venue_tz: string;
  status: string;
  starts_at: string;
  duration_minutes: number;
  deleted?: boolean;
}

export interface LedgerRow {
  venue_id: string;
  hour_start: string;
  shifts_on: number;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The day the venue's clocks go back (it lasts 25 hours on the venue's clock). */
export function fallBackNight(timeZone: string): string {
  for (let d = Date.parse(`${ROTA_FROM}T00:00:00Z`); d <= Date.parse(`${ROTA_TO}T00:00:00Z`); d += DAY) {
    const start = instantOf(`${day(d)}T00:00`, timeZone);
    const end = instantOf(`${day(d + DAY)}T00:00`, timeZone);
    if (end - start > 24 * HOUR) return day(d);
  }
  throw new Error(`the clocks do not go back in ${timeZone} between ${ROTA_FROM} and ${ROTA_TO}`);
}

/** Each venue's night, hour by hour as it really passed: how many shifts run during some part of each hour. */
export function nightLedger(venues: Venue[], shifts: Shift[]): LedgerRow[] {
  const rows: LedgerRow[] = [];
  const running = shifts
    .filter((s) => !s.deleted && ON_FLOOR.has(s.status))
    .map((s) => {
      const start = instantOf(s.starts_at, s.venue_tz);
      return { venue: s.venue_id, start, end: start + s.duration_minutes * 60_000 };
    });
  for (const venue of venues.filter((v) => !v.deleted).sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const night = fallBackNight(venue.venue_tz);
    const from = instantOf(`${night}T00:00`, venue.venue_tz);
    const to = instantOf(`${night}T06:00`, venue.venue_tz);
    for (let t = from; t < to; t += HOUR) {
      const on = running.filter((s) => s.venue === venue.id && s.start < t + HOUR && s.end > t).length;
      rows.push({ venue_id: venue.id, hour_start: withOffset(t, venue.venue_tz), shifts_on: on });
    }
  }
  return rows;
}
