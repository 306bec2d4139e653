import type { Resource } from "../../../declarations/schema/vendor.ts";
import { timeFormat } from "../../../mechanics/time-formats/index.ts";
import { windowStyle } from "../../../mechanics/windows/index.ts";
import { formatTime, parseTime, vendorNow } from "../data/clock.ts";
import type { HandlerContext } from "../handler-context.ts";

/** A windowed list's request, read: the store filter and the envelope field reporting the window served, or a refusal. */
export type ListWindow = { ok: true; range: { field: string; fromMs: number; toMs: number }; report: Record<string, unknown> } | { ok: false; param: string; message: string };

/**
 * Reads the time window of a list declared with one (null for other lists),
 * through its style: the window served, never past the vendor's "now".
 */
export function readWindow(ctx: HandlerContext, resource: Resource): ListWindow | null {
  const w = resource.window;
  if (!w) return null;
  const { vendor, req, config } = ctx;
  const style = windowStyle(w);
  const read = style.read(w as never, req.query, {
    parseTime: (raw) => parseTime(raw, vendor.clock.format),
    format: timeFormat(vendor.clock.format).docs.describe(vendor.clock),
    nowMs: vendorNow(vendor.clock, config.checkpoint, ctx.requestsInEpoch),
  });
  if (!read.ok) return read;
  const at = (ms: number) => formatTime(ms, vendor.clock.format, "", vendor.clock.zone);
  return {
    ok: true,
    range: { field: style.field(w as never), fromMs: read.window.fromMs, toMs: read.window.toMs },
    report: { [style.reportField(w as never)]: { from: at(read.window.fromMs), to: at(read.window.toMs) } },
  };
}
