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

/**
 * Unix seconds of a local `YYYY-MM-DD HH:MM` in an IANA zone, through the
 * zone's rules on that very date (a move across a DST change gets the offset
 * of its new date, not today's); null when the text or the zone is not valid.
 * The desk's spreadsheet writes an hour before ten without its leading zero
 * (`8:30`), so the hour may have one digit.
 */
export function localToUnixS(local: string, timeZone: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{1,2}):(\d{2})$/.exec(local.trim());
  if (!m) return null;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  try {
    const first = wall - offsetMs(wall, timeZone);
    return (wall - offsetMs(first, timeZone)) / 1000;
  } catch {
    return null;
  }
}
