import type { Vendor } from "../../../declarations/schema/vendor.ts";
import type { Watermark } from "../../../mechanics/incremental/define.ts";
import { incrementalStyle } from "../../../mechanics/incremental/index.ts";
import { timeFormat } from "../../../mechanics/time-formats/index.ts";
import { parseTime } from "../data/clock.ts";
import type { QueryReader } from "../../../mechanics/kit/query-params.ts";

export type { Watermark };

/** Reads the vendor's incremental filter from a query, through its style. */
export function readWatermark(vendor: Vendor, query: QueryReader): Watermark {
  const inc = vendor.incremental;
  if (!inc) return { ok: true };
  const style = incrementalStyle(inc);
  const raw = query.get(style.param(inc));
  if (raw === null || raw === "") return { ok: true };
  return style.read(inc, raw, (text) => parseTime(text, vendor.clock.format), timeFormat(vendor.clock.format).docs.describe(vendor.clock));
}
