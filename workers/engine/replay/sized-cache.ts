/**
 * @module sized-cache
 * A map that holds at most so many entries and so many bytes, dropping the
 * oldest first. The replay cache (one per world) and the held bodies (one per
 * Worker isolate) keep their entries in it.
 */
export class SizedCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private bytes = 0;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly sizeOf: (key: string, value: V) => number;

  constructor(maxEntries: number, maxBytes: number, sizeOf: (key: string, value: V) => number) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
    this.sizeOf = sizeOf;
  }

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Keeps `value` as the newest entry; one larger than the whole budget is not kept (and drops the old one). */
  set(key: string, value: V): void {
    this.delete(key);
    const bytes = this.sizeOf(key, value);
    if (bytes > this.maxBytes) return;
    for (const [oldest] of this.entries) {
      if (this.entries.size < this.maxEntries && this.bytes + bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }
}
