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

/** Renders a data-clock instant in the vendor's wire format (`recordId` keys per-record offsets; `zone` is the record's zone). */
export function formatTime(ms: number, format: TimeFormat, recordId = "", zone?: string): number | string {
  return timeFormat(format).format(ms, { recordId, zone });
}

/** The zone a record's times are written in: its own (`zoneField`), else the vendor's. */
export function recordZone(clock: Pick<Clock, "zone" | "zoneField">, data: Record<string, unknown> | null | undefined): string | undefined {
  const own = clock.zoneField ? data?.[clock.zoneField] : undefined;
  return typeof own === "string" ? own : clock.zone;
}

/** Parses a watermark a client sent, in the vendor's format; null when unreadable. */
export function parseTime(raw: string, format: TimeFormat): number | null {
  return timeFormat(format).parse(raw);
}
