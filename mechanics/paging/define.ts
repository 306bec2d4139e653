/**
 * @module paging/define
 * The shape of a paging style: its declaration schema, how a request says
 * where a page starts, how the next page is named, and how the documentation
 * describes it. One module per style; `paging/index.ts` lists them.
 */
import { z } from "zod";

/** Where a list response tells the client about the next page. */
export const NextLink = z.enum([
  /** Nothing: the client computes the next offset or page itself. */
  "none",
  /** A JSON field of the envelope (`next` for offset/page, the cursor for cursors). */
  "body",
  /** An RFC 8288 `Link: <...>; rel="next"` header. */
  "link-header",
  /** A hypermedia `_links.next.href` in the envelope. */
  "hal",
]);

/** Fields every paging style declares. */
export const pagingCommon = {
  /** Page size used when the client sends none. */
  defaultLimit: z.number().int().positive(),
  /** Largest page size served. */
  maxLimit: z.number().int().positive(),
  /** `clamp`: larger sizes are silently cut; `error`: they get a 400. */
  overMax: z.enum(["clamp", "error"]).default("clamp"),
  /** Whether the envelope carries the total count. */
  total: z.boolean().default(false),
  next: NextLink.default("none"),
  /**
   * Pages are stable only when the list is sorted: without `param=value`,
   * every page serves the records of the first one (page two repeats page one).
   */
  sortRequired: z.object({ param: z.string(), value: z.string() }).optional(),
};

/** Binds cursors to one list query of one epoch. */
export interface CursorScope {
  seed: number;
  epoch: number;
  listKey: string;
  /** Sequence number of the request being served. */
  requestSeq: number;
  /** Cursors issued before this request number are refused (a fault); 0 for none. */
  cutoff?: number;
}

/** Where a page starts, read from the request. */
export type PositionRead = { ok: true; offset: number } | { ok: false; message: string; invalidated?: boolean };

/** A documented query parameter of a list endpoint. */
export interface DocParam {
  name: string;
  /** What the parameter does: `position` and `size` page, `since` filters, `flag` switches fields on, `window` bounds a time window. */
  role: "position" | "size" | "sort" | "since" | "flag" | "window";
  /** Whether every request must send it (sorts a list needs are required too). */
  required?: boolean;
  description: string;
  /** For flags and sorts: the value to send. */
  value?: string;
  /** JSON Schema of the value, for the OpenAPI document. */
  schema?: Record<string, unknown>;
}

/** A paging style. `P` is its declared object. */
export interface PagingStyle<S extends z.ZodObject = z.ZodObject, P = z.infer<S>> {
  schema: S;
  /** Names of the parameters that say where a page starts and how big it is. */
  params(p: P): { position: string; size: string };
  /** Renames a parameter in a declared (or documented) paging object. */
  renameParam(p: P, from: string, to: string): void;
  /** Reads where the page starts; `raw` is the position parameter ("" or null when absent). */
  readPosition(p: P, raw: string | null, limit: number, scope: CursorScope): PositionRead;
  /** The position parameter's value for the page starting at `offset`. */
  nextPosition(p: P, offset: number, limit: number, scope: CursorScope): string;
  /** The envelope's `next` field for that value (paging `next: body`). */
  nextBodyValue(p: P, position: string): unknown;
  /** Whether a position value asks for the first page (for conduct checks; absent means first). */
  isStart(p: P, value: string): boolean;
  docs: {
    /** The position parameter as the docs describe it. */
    position(p: P): DocParam;
    /** One sentence: which parameters to pass. */
    howTo(p: P): string;
    /** What the envelope's `next` field holds, as a noun phrase ("the cursor of the next page"). */
    nextNoun: string;
    /** JSON type of the `next` field. */
    nextType: "string" | "integer";
    /** An example `next` value. */
    exampleNext(p: P): unknown;
  };
}

export function definePaging<S extends z.ZodObject>(style: PagingStyle<S>): PagingStyle<S> {
  return style;
}

/** The `style` literal of a paging style. */
export function styleOf(s: PagingStyle): string {
  return (s.schema.shape.style as z.ZodLiteral<string>).value;
}
