/**
 * @module request-headers
 * A request's headers as the engine and the mechanics read them. The runtime's
 * `Headers` is a host object: building one and walking it costs a crossing
 * into the runtime per call, which a world object paid on every request. The
 * surface already hands the request over as lower-cased name/value pairs, so
 * a plain map answers the same questions in JavaScript.
 */

/** What reading a request's headers needs; the runtime's `Headers` has this shape too. */
export interface HeaderReader {
  /** The value (repeated headers joined with ", "), or null when absent; names are case-insensitive. */
  get(name: string): string | null;
  has(name: string): boolean;
  /** Every header once, lower-cased, in the order received. */
  forEach(fn: (value: string, name: string) => void): void;
}

/** Headers from name/value pairs (as `Headers.forEach` gives them), with `Headers`' reading rules. */
export class RequestHeaders implements HeaderReader {
  private readonly byName = new Map<string, string>();

  constructor(pairs: Iterable<readonly [string, string]> = []) {
    for (const [name, value] of pairs) {
      const key = name.toLowerCase();
      const before = this.byName.get(key);
      this.byName.set(key, before === undefined ? value : `${before}, ${value}`);
    }
  }

  get(name: string): string | null {
    return this.byName.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.byName.has(name.toLowerCase());
  }

  forEach(fn: (value: string, name: string) => void): void {
    for (const [name, value] of this.byName) fn(value, name);
  }
}
