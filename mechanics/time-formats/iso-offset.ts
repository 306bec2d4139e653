/**
 * @module time-formats/iso-offset
 * ISO 8601 strings with the UTC offset of the office that recorded them: each
 * record keeps one offset (keyed by its id), so instants must be compared,
 * never strings.
 */
import { hashKey } from "../kit/hash-key.ts";
import { defineTimeFormat, parseIsoInstant } from "./define.ts";

/** UTC offsets (minutes) of the recording offices. */
const OFFSETS_MIN = [0, -300, -480, 60, 330, 540, -180, 120, 600, -360];

/** The fixed UTC offset of one record. */
export function recordOffsetMinutes(recordId: string): number {
  return OFFSETS_MIN[hashKey([recordId]) % OFFSETS_MIN.length];
}

const pad = (n: number) => String(Math.abs(n)).padStart(2, "0");

export const isoOffset = defineTimeFormat({
  name: "iso_offset",
  format(ms, ctx) {
    const off = recordOffsetMinutes(ctx.recordId);
    const local = new Date(ms + off * 60_000).toISOString().slice(0, 19);
    return `${local}${off < 0 ? "-" : "+"}${pad(Math.trunc(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
  },
  parse: parseIsoInstant,
  docs: {
    describe: () => "ISO 8601 strings with the UTC offset of the office that recorded them (`2024-03-04T09:00:00+01:00`)",
    schema: { type: "string", format: "date-time" },
  },
});
