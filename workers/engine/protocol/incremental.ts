import type { Vendor } from "../../../declarations/schema/vendor.ts";
import { parseTime } from "../data/clock.ts";

export type Watermark = { ok: true; since?: { ms: number; inclusive: boolean } } | { ok: false; message: string };

/** Reads the vendor's incremental filter from a query, in the vendor's own time format. */
export function readWatermark(vendor: Vendor, query: URLSearchParams): Watermark {
  const inc = vendor.incremental;
  if (!inc) return { ok: true };
  const raw = query.get(inc.param);
  if (raw === null || raw === "") return { ok: true };
  const ms = parseTime(raw, vendor.clock.format);
  if (ms === null) return { ok: false, message: `${inc.param} must be a timestamp in ${vendor.clock.format} format` };
  return { ok: true, since: { ms, inclusive: inc.op === ">=" } };
}
