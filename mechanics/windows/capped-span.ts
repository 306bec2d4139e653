/**
 * @module windows/capped-span
 * `?from=<time>&to=<time>`: both required, half-open on one timestamp field.
 * A window longer than the cap is cut to the cap (and never reaches past the
 * vendor's "now"); the answer's report field states the window served, so a
 * client that reads it knows where to ask next.
 */
import { z } from "zod";
import { defineWindow } from "./define.ts";

const DAY_MS = 86_400_000;

const schema = z.object({
  style: z.literal("capped-span"),
  /** Query parameter holding the window's start (inclusive). */
  from: z.string().regex(/^[a-z][a-z0-9_]*$/),
  /** Query parameter holding the window's end (exclusive). */
  to: z.string().regex(/^[a-z][a-z0-9_]*$/),
  /** Timestamp field of the resource the window is compared with. */
  field: z.string(),
  /** Longest window served, in days: a longer one is cut to this many days after its start. */
  maxSpanDays: z.number().int().positive(),
  /** Envelope field reporting the window served, `{from, to}` in the vendor's time format. */
  reportField: z.string().regex(/^[a-z][a-z0-9_]*$/),
  /**
   * Days of history before the vendor clock's epoch the list holds, as the
   * docs state it (seeded records reach back 400 days: at least that).
   */
  historyDays: z.number().int().positive(),
});

export const cappedSpan = defineWindow({
  schema,
  params: (w) => ({ from: w.from, to: w.to }),
  field: (w) => w.field,
  maxSpanDays: (w) => w.maxSpanDays,
  withMaxSpanDays: (w, days) => ({ ...w, maxSpanDays: days }),
  reportField: (w) => w.reportField,
  read(w, query, ctx) {
    const bounds: Record<string, number> = {};
    for (const name of [w.from, w.to]) {
      const raw = query.get(name);
      if (raw === null || raw === "") return { ok: false, param: name, message: `${w.from} and ${w.to} are required: this list is read one time window at a time` };
      const ms = ctx.parseTime(raw);
      if (ms === null) return { ok: false, param: name, message: `${name} must be a timestamp: ${ctx.format}` };
      bounds[name] = ms;
    }
    const fromMs = bounds[w.from];
    if (bounds[w.to] <= fromMs) return { ok: false, param: w.to, message: `${w.to} must be after ${w.from}` };
    const toMs = Math.max(fromMs, Math.min(bounds[w.to], fromMs + w.maxSpanDays * DAY_MS, ctx.nowMs));
    return { ok: true, window: { fromMs, toMs } };
  },
  checkResource(w, r) {
    if (w.from === w.to) return "the window's from and to parameters must differ";
    const f = r.fields.find((x) => x.name === w.field);
    if (f?.type !== "timestamp") return `window field "${w.field}" must be a timestamp field of "${r.name}"`;
    if (r.fields.some((x) => x.name === w.reportField)) return `window report field "${w.reportField}" is a field of "${r.name}"`;
    return null;
  },
  docs: {
    params: (w) => [
      { name: w.from, role: "window", required: true, description: `Start of the window, inclusive: records whose \`${w.field}\` is at or after this time.` },
      { name: w.to, role: "window", required: true, description: `End of the window, exclusive: records whose \`${w.field}\` is before this time.` },
    ],
    describe: (w, historyStart) => [
      `This list is read one time window at a time: \`${w.from}\` and \`${w.to}\` are required, in the same format as the record timestamps, and select the records whose \`${w.field}\` falls in \`[${w.from}, ${w.to})\`. A request without them answers \`400\`.`,
      `A window may span at most ${w.maxSpanDays} days. A longer one is not refused: it is cut to the ${w.maxSpanDays} days after \`${w.from}\` (and never reaches past the present), and \`${w.reportField}\` in the answer (\`{"from": …, "to": …}\`) states the window served.`,
      `Paging works within a window: page positions and totals count that window's records only. Records go back to ${historyStart}.`,
    ],
    historyStartMs: (w, epochMs) => epochMs - w.historyDays * DAY_MS,
  },
});
