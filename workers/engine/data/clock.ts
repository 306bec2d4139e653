import type { Clock, TimeFormat } from "../../../declarations/schema/vendor.ts";
import { hashKey } from "./prng.ts";

/** Data-clock time (ms) of a checkpoint. */
export function checkpointTime(clock: Clock, checkpoint: number): number {
  return Date.parse(clock.epoch) + checkpoint * clock.checkpointSpacingS * 1000;
}

/** Data-clock "now": the checkpoint time advanced by the requests served in this epoch. */
export function vendorNow(clock: Clock, checkpoint: number, requestsInEpoch: number): number {
  return checkpointTime(clock, checkpoint) + requestsInEpoch * clock.secondsPerRequest * 1000;
}

/** UTC offsets (minutes) used by `iso_offset` vendors: branch-local stamps. */
const OFFSETS_MIN = [0, -300, -480, 60, 330, 540, -180, 120, 600, -360];

/** The fixed UTC offset of one record, for `iso_offset` formatting. */
export function recordOffsetMinutes(recordId: string): number {
  return OFFSETS_MIN[hashKey([recordId]) % OFFSETS_MIN.length];
}

function pad(n: number, width = 2): string {
  return String(Math.abs(n)).padStart(width, "0");
}

/** Renders a data-clock instant in the vendor's wire format. */
export function formatTime(ms: number, format: TimeFormat, recordId = ""): number | string {
  switch (format) {
    case "epoch_ms":
      return ms;
    case "epoch_s":
      return Math.floor(ms / 1000);
    case "iso":
      return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
    case "iso_offset": {
      const off = recordOffsetMinutes(recordId);
      const local = new Date(ms + off * 60_000).toISOString().slice(0, 19);
      const sign = off < 0 ? "-" : "+";
      return `${local}${sign}${pad(Math.trunc(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
    }
  }
}

/** Parses a watermark a client sent, in the vendor's format; null when unreadable. */
export function parseTime(raw: string, format: TimeFormat): number | null {
  const trimmed = raw.trim();
  if (format === "epoch_ms" || format === "epoch_s") {
    if (!/^\d{1,16}$/.test(trimmed)) return null;
    const n = Number(trimmed);
    return format === "epoch_ms" ? n : n * 1000;
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(trimmed)) return null;
  const ms = Date.parse(trimmed);
  return Number.isNaN(ms) ? null : ms;
}
