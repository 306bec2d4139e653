/**
 * @module time-formats/local
 * Venue-local wall-clock time without an offset (`2025-10-26T01:30:00`), in
 * the IANA zone the record names (the clock's `zoneField`) or the vendor's
 * own (`zone`). On a daylight-saving fall-back night one wall time names two
 * instants: only the zone and the order of events tell them apart. A client
 * sends watermarks as instants (ISO 8601 with `Z` or an offset).
 */
import { defineTimeFormat, parseIsoInstant } from "./define.ts";

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClock(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
    formatters.set(zone, f);
  }
  return f;
}

/** Whether the runtime knows an IANA zone name. */
export function knownZone(zone: string): boolean {
  try {
    wallClock(zone);
    return true;
  } catch {
    return false;
  }
}

export const localWallTime = defineTimeFormat({
  name: "local",
  format(ms, ctx) {
    const parts = Object.fromEntries(
      wallClock(ctx.zone ?? "UTC")
        .formatToParts(new Date(ms))
        .map((p) => [p.type, p.value]),
    );
    return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
  },
  parse: parseIsoInstant,
  check(clock) {
    if (!clock.zone) return "a local time format needs the vendor's own zone (`clock.zone`)";
    if (!knownZone(clock.zone)) return `unknown time zone "${clock.zone}"`;
    return null;
  },
  docs: {
    describe: (clock) =>
      `local wall-clock times without an offset (\`2024-03-04T09:00:00\`), in ${clock.zoneField ? `the IANA time zone each record names in \`${clock.zoneField}\` (else ${clock.zone})` : `the ${clock.zone} time zone`}; send watermarks as ISO 8601 instants with \`Z\` or an offset`,
    schema: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$" },
  },
});
