import { instantOf, withOffset } from "./local-time.ts";

/** The night the clocks go back, as the venues' calendars show it. */
export const NIGHT = "2025-10-26";
/** The night runs from midnight to 06:00 on the venue's clock. */
const NIGHT_HOURS = 6;
const HOUR = 3_600_000;
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

/** Each venue's night, hour by hour: how many shifts run during some part of each hour. */
export function nightLedger(venues: Venue[], shifts: Shift[]): LedgerRow[] {
  const rows: LedgerRow[] = [];
  for (const venue of venues.filter((v) => !v.deleted).sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const counts = new Map<string, number>();
    const hours: string[] = [];
    for (let h = 0; h < NIGHT_HOURS; h++) {
      const label = `${NIGHT}T${String(h).padStart(2, "0")}:00`;
      hours.push(label);
      counts.set(label, 0);
    }
    for (const s of shifts) {
      if (s.venue_id !== venue.id || s.deleted || !ON_FLOOR.has(s.status)) continue;
      const start = instantOf(s.starts_at, s.venue_tz);
      const end = start + s.duration_minutes * 60_000;
      // Walk the shift hour by hour on the venue's clock and mark each hour of the night it touches.
      for (let t = start - (start % HOUR); t < end; t += HOUR) {
        const label = withOffset(t, venue.venue_tz).slice(0, 16);
        if (counts.has(label)) counts.set(label, (counts.get(label) ?? 0) + 1);
      }
    }
    for (const label of hours) rows.push({ venue_id: venue.id, hour_start: withOffset(instantOf(label, venue.venue_tz), venue.venue_tz), shifts_on: counts.get(label) ?? 0 });
  }
  return rows;
}
