/**
 * @module windows/define
 * The shape of a window style: a list read one time window at a time, over
 * one timestamp field of its records. A style says which query parameters
 * bound the window, how the vendor reads them (and what it does with a window
 * longer than it serves), how the answer reports the window it served, and
 * how the docs describe all of it. One module per style; `windows/index.ts`
 * lists them.
 */
import type { z } from "zod";
import type { DocParam } from "../paging/define.ts";
import type { QueryReader } from "../kit/query-params.ts";

/** A window as served: half-open, `[fromMs, toMs)` on the data clock. */
export interface ServedWindow {
  fromMs: number;
  toMs: number;
}

/** A window read from a request: the one served, or why the request is refused (a 400 naming `param`). */
export type WindowRead = { ok: true; window: ServedWindow } | { ok: false; param: string; message: string };

/** What a style may know of the vendor when it reads a window. */
export interface WindowReadContext {
  /** Reads a timestamp in the vendor's format; null when it is not one. */
  parseTime(raw: string): number | null;
  /** The vendor's time format, in prose, for error messages. */
  format: string;
  /** The vendor's data-clock "now" (a window never reaches past it). */
  nowMs: number;
}

/** The resource fields a style checks its field against. */
export interface WindowedResource {
  name: string;
  fields: { name: string; type: string; gen: { gen: string } }[];
}

export interface WindowStyle<S extends z.ZodObject = z.ZodObject, W = z.infer<S>> {
  schema: S;
  /** The query parameters bounding the window. */
  params(w: W): { from: string; to: string };
  /** The record field the window is compared with. */
  field(w: W): string;
  /** The longest window served, in days. */
  maxSpanDays(w: W): number;
  /** The same declaration with another longest window (what a lie about the cap tells). */
  withMaxSpanDays(w: W, days: number): W;
  /** The envelope field that reports the window served. */
  reportField(w: W): string;
  /** Reads the window a request asks for and decides the one served. */
  read(w: W, query: QueryReader, ctx: WindowReadContext): WindowRead;
  /** Why the style cannot window this resource (the field is not one of its timestamps), or null. */
  checkResource?(w: W, r: WindowedResource): string | null;
  docs: {
    /** The window parameters as the docs describe them (role `window`, required). */
    params(w: W): DocParam[];
    /** What the docs say about reading the list, sentence by sentence; `historyStart` is the ledger's first day (ISO date). */
    describe(w: W, historyStart: string): string[];
    /** The earliest instant the list holds, from the vendor clock's epoch (ms). */
    historyStartMs(w: W, epochMs: number): number;
  };
}

export function defineWindow<S extends z.ZodObject>(style: WindowStyle<S>): WindowStyle<S> {
  return style;
}

/** The `style` literal of a window style. */
export function windowStyleOf(s: WindowStyle): string {
  return (s.schema.shape.style as z.ZodLiteral<string>).value;
}
