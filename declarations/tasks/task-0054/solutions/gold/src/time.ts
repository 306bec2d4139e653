/**
 * Rosterly stamps are wall-clock times without an offset, in the record's
 * venue zone or, for workers and notes, the organisation's (Europe/London).
 * These turn such a stamp into the instant it names.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClock(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
    formatters.set(zone, f);
  }
  return f;
}

/** The zone's offset from UTC (ms) at an instant. */
function offsetAt(zone: string, ms: number): number {
  const p = Object.fromEntries(
    wallClock(zone)
      .formatToParts(new Date(ms))
      .map((x) => [x.type, Number(x.value)]),
  );
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

/** The instant (ISO 8601, `Z`) a wall-clock stamp of `zone` names; on a fall-back night the earlier of the two. */
export function wallToUtc(stamp: string, zone: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(stamp);
  if (!m) throw new Error(`unexpected Rosterly timestamp ${JSON.stringify(stamp)}`);
  const asUtc = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  // Try both offsets around the stamp; keep the readings that land on it, earliest first.
  const candidates = [...new Set([offsetAt(zone, asUtc - 86_400_000), offsetAt(zone, asUtc + 86_400_000), offsetAt(zone, asUtc)])]
    .map((off) => asUtc - off)
    .filter((ms) => asUtc - offsetAt(zone, ms) === ms)
    .sort((a, b) => a - b);
  if (!candidates.length) throw new Error(`${stamp} does not exist on the ${zone} clock`);
  return new Date(candidates[0]).toISOString().replace(".000Z", "Z");
}
