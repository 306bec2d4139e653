/**
 * @module page-items-cache
 * The items of list pages, serialised and joined, so a page asked for again
 * while its records stand is not rebuilt row by row. An entry holds for one
 * store version, and only listings no lagging record can change are cached
 * (see `RecordStore.listingVersion`); the list leaves out pages that embed
 * children, rename fields by fault or read a time window. The envelope, the
 * next link or cursor and the faults that refuse a page are still worked out
 * for every request: they depend on the request, not only on the records.
 * A cached page also keeps the UTF-8 bytes of the last body it went out in
 * (see `SplicedJson`), so a page asked for again in the same envelope is
 * neither joined nor encoded again.
 */

import type { SharedRun } from "../http/spliced-json.ts";

/** A page's items as the envelope takes them. */
export interface PageItems extends SharedRun {
  /** The items' JSON texts joined by commas, without the brackets. */
  json: string;
  /** How many items. */
  count: number;
  /** Matching records in the whole list (as far as the list shows). */
  total: number;
}

export class PageItemsCache {
  private readonly entries = new Map<string, { version: number; items: PageItems }>();
  private readonly cap: number;

  /** `cap` bounds the pages held; past it the cache starts over. */
  constructor(cap = 128) {
    this.cap = cap;
  }

  /** The page cached under `key` at store version `version`, if any. */
  get(key: string, version: number): PageItems | undefined {
    const hit = this.entries.get(key);
    return hit?.version === version ? hit.items : undefined;
  }

  set(key: string, version: number, items: PageItems): void {
    if (this.entries.size >= this.cap && !this.entries.has(key)) this.entries.clear();
    this.entries.set(key, { version, items });
  }
}
