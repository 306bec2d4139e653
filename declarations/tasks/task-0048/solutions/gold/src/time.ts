/**
 * Rosterly stamps are wall-clock times without an offset, in the zone the
 * record names in `venue_tz`. A wall time names one instant, none (skipped
 * in spring) or two (repeated in autumn).
 */
const clocks = new Map<string, Intl.DateTimeFormat>();

function onClock(zone: string, ms: number): string {
  let f = clocks.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
    clocks.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

/** The zone's offset from UTC (ms) at an instant. */
function offsetAt(zone: string, ms: number): number {
  return Date.parse(`${onClock(zone, ms)}Z`) - Math.floor(ms / 1000) * 1000;
}

/** Every instant the zone's clock reads as `wall`, earliest first. */
export function instantsOf(wall: string, zone: string): number[] {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(wall)) throw new Error(`unexpected Rosterly timestamp ${JSON.stringify(wall)}`);
  const asUtc = Date.parse(`${wall}Z`);
  const offsets = new Set([offsetAt(zone, asUtc - 86_400_000), offsetAt(zone, asUtc), offsetAt(zone, asUtc + 86_400_000)]);
  return [...offsets]
    .map((off) => asUtc - off)
    .filter((ms) => onClock(zone, ms) === wall)
    .sort((a, b) => a - b);
}

export const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
