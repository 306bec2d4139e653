/**
 * Serialised rows, of list pages and single reads. A row from the records
 * mirror is cached on its row object (by identity, with the version it was
 * serialised at): a list page then looks up fifty rows without building fifty
 * key strings. A row read
 * from SQLite is cached by (entity, id, version) instead. Either way a write
 * bumps the version and a recreate builds a new engine, so entries never go
 * stale; the cap bounds the keyed entries only (row-held ones go with their
 * rows).
 */
import type { PageRow } from "../store/page-row.ts";

/** How a row is shown: the resource, the request's view, and whether it lags or is deleted. */
export type RowVariant = string;

/** The four variants of one page's rows (lagging × deleted), built once per page. */
export function rowVariants(resource: string, view: string): readonly RowVariant[] {
  return ["00", "01", "10", "11"].map((flags) => `${resource}|${flags}|${view}`);
}

/** The variant a row of the page shows. */
export function variantOf(variants: readonly RowVariant[], row: PageRow): RowVariant {
  return variants[(row.lagging ? 2 : 0) + (row.deleted ? 1 : 0)];
}

export class RowJsonCache {
  private readonly held = new WeakMap<object, { version: number; byVariant: Map<RowVariant, string> }>();
  private readonly keyed = new Map<string, string>();
  private readonly cap: number;

  constructor(cap = 50_000) {
    this.cap = cap;
  }

  get(row: PageRow, variant: RowVariant): string | undefined {
    if (row.source === null) return this.keyed.get(`${row.id}|${row.version}|${variant}`);
    const entry = this.held.get(row.source);
    return entry?.version === row.version ? entry.byVariant.get(variant) : undefined;
  }

  set(row: PageRow, variant: RowVariant, json: string): void {
    if (row.source === null) {
      if (this.keyed.size >= this.cap) this.keyed.clear();
      this.keyed.set(`${row.id}|${row.version}|${variant}`, json);
      return;
    }
    let entry = this.held.get(row.source);
    if (entry?.version !== row.version) this.held.set(row.source, (entry = { version: row.version, byVariant: new Map() }));
    entry.byVariant.set(variant, json);
  }
}
