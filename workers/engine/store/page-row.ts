/**
 * @module page-row
 * A record as a list page or a single read serves it: its stored JSON text,
 * what the record store hands out and the row-JSON cache keys on.
 */

/** A row of a list page, as stored text. */
export interface PageRow {
  id: string;
  version: number;
  deleted: boolean;
  /** Whether the row shows its pre-update text (`text` is then that text). */
  lagging: boolean;
  text: string;
  /** The mirror's row object (one per record, lasting while the record does), or null for a row read from SQLite. */
  source: object | null;
}
