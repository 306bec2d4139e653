/**
 * @module deletes/define
 * The shape of a delete style: how a deleted record shows in lists, reads
 * and responses, which feed (if any) lists deletions, and how the docs say
 * so. One module per style; `deletes/index.ts` lists them.
 */
import type { z } from "zod";

/** How a read of a deleted record is answered. */
export type DeletedRead = { serve: true } | { serve: false; status: 404 | 410; code: string; message: (what: string) => string };

/** A feed that lists deletions. */
export interface DeleteFeed<D> {
  /** Where the feed is listed, or undefined when only a gateway operation reaches it. */
  path(d: D): string | undefined;
  /** Whether the feed honours the vendor's incremental filter. */
  incremental(d: D): boolean;
  /** One entry of the feed. */
  entry(d: D, t: { id: unknown; entity: string; deletedAt: unknown }): Record<string, unknown>;
  /** JSON Schema properties of an entry and the required ones, for the OpenAPI document. */
  entrySchema(d: D, deletedAt: Record<string, unknown>): { properties: Record<string, unknown>; required: string[] };
}

export interface DeleteStyle<S extends z.ZodObject = z.ZodObject, D = z.infer<S>> {
  schema: S;
  /** Whether deleted records stay in lists (and their children stay reachable). */
  listsDeleted: boolean;
  /** How a single-record read of a deleted record is answered. */
  read: DeletedRead;
  /** The boolean field that marks a served record deleted, if the style has one. */
  flagField?(d: D): string;
  feed?: DeleteFeed<D>;
  docs: {
    /** One clause: what happens to deleted records ("deleted records ..."). */
    clause(d: D): string;
    /** Extra sentences for the syncing page. */
    syncing?(d: D, hasIncremental: boolean): string;
  };
}

export function defineDeletes<S extends z.ZodObject>(style: DeleteStyle<S>): DeleteStyle<S> {
  return style;
}

export function modeOf(s: DeleteStyle): string {
  return (s.schema.shape.mode as z.ZodLiteral<string>).value;
}
