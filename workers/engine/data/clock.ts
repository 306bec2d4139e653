import type { Clock, TimeFormat } from "../../../declarations/schema/vendor.ts";
import { timeFormat } from "../../../mechanics/time-formats/index.ts";

/** Data-clock time (ms) of a checkpoint. */
export function checkpointTime(clock: Clock, checkpoint: number): number {
  return Date.parse(clock.epoch) + checkpoint * clock.checkpointSpacingS * 1000;
}

/** Data-clock "now": the checkpoint time advanced by the requests served in this epoch. */
export function vendorNow(clock: Clock, checkpoint: number, requestsInEpoch: number): number {
  return checkpointTime(clock, checkpoint) + requestsInEpoch * clock.secondsPerRequest * 1000;
}

/** Renders a data-clock instant in the vendor's wire format (`recordId` keys per-record offsets). */
export function formatTime(ms: number, format: TimeFormat, recordId = ""): number | string {
  return timeFormat(format).format(ms, { recordId });
}

/** Parses a watermark a client sent, in the vendor's format; null when unreadable. */
export function parseTime(raw: string, format: TimeFormat): number | null {
  return timeFormat(format).parse(raw);
}
