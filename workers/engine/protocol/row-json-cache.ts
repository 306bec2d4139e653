/**
 * Serialised list rows keyed by (entity, id, version, view). Rows only change
 * through writes, which bump the version, and recreate builds a new engine, so
 * entries never go stale; the cap only bounds memory.
 */
export class RowJsonCache {
  private readonly entries = new Map<string, string>();
  private readonly cap: number;

  constructor(cap = 50_000) {
    this.cap = cap;
  }

  get(key: string): string | undefined {
    return this.entries.get(key);
  }

  set(key: string, json: string): void {
    if (this.entries.size >= this.cap) this.entries.clear();
    this.entries.set(key, json);
  }
}
