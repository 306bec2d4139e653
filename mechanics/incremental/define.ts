/**
 * @module incremental/define
 * The shape of an incremental style: the filter a list accepts to return only
 * what changed, how the vendor reads it and how the docs describe it.
 */
import type { z } from "zod";

/** A watermark read from a request: what to compare, and whether equality counts. */
export type Watermark = { ok: true; since?: { ms: number; inclusive: boolean } } | { ok: false; message: string };

export interface IncrementalStyle<S extends z.ZodObject = z.ZodObject, I = z.infer<S>> {
  schema: S;
  /** The query parameter carrying the watermark. */
  param(inc: I): string;
  /** Reads the watermark; `parseTime` reads a timestamp in the vendor's format (null when it is not one), `format` describes that format in prose. */
  read(inc: I, raw: string, parseTime: (raw: string) => number | null, format: string): Watermark;
  /** Checks the style against each incremental resource's fields. */
  checkResource?(inc: I, r: { name: string; fields: { name: string; gen: { gen: string } }[] }): string | null;
  docs: {
    /** What the parameter does, as one sentence. */
    describe(inc: I): string;
  };
}

export function defineIncremental<S extends z.ZodObject>(style: IncrementalStyle<S>): IncrementalStyle<S> {
  return style;
}

export function incrementalStyleOf(s: IncrementalStyle): string {
  return (s.schema.shape.style as z.ZodLiteral<string>).value;
}
