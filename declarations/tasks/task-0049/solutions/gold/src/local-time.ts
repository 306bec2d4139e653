/** The zone's offset from UTC at an instant, in milliseconds. */
export function offsetMs(instantMs: number, timeZone: string): number {
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

/** A wall-clock text (`2025-10-26T01:30:00`) as milliseconds on a UTC-like scale. */
function wallMs(wallClock: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(wallClock);
  if (!m) throw new Error(`not a wall-clock time: ${wallClock}`);
  return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0));
}

/**
 * The instant of a venue's wall-clock time, through the zone's rules on that
 * date. On a fall-back night one wall time names two instants: this is the
 * first of them (the ticket's rule). A time a spring-forward gap skips
 * resolves past the gap.
 */
export function instantOf(wallClock: string, timeZone: string): number {
  const wall = wallMs(wallClock);
  const shown = [offsetMs(wall - 12 * 3_600_000, timeZone), offsetMs(wall + 12 * 3_600_000, timeZone)].map((o) => wall - o).filter((t) => t + offsetMs(t, timeZone) === wall);
  if (shown.length) return Math.min(...shown);
  const first = wall - offsetMs(wall, timeZone);
  return wall - offsetMs(first, timeZone);
}

/** An instant as the venue's clock shows it, with the venue's offset then (`2025-10-26T01:00:00+01:00`). */
export function withOffset(instantMs: number, timeZone: string): string {
  const off = Math.round(offsetMs(instantMs, timeZone) / 60_000);
  const wall = new Date(instantMs + off * 60_000).toISOString().slice(0, 19);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${wall}${off < 0 ? "-" : "+"}${pad(Math.trunc(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
}
