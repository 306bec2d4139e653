/**
 * @module query-params
 * A request's query as the engine and the mechanics read it, parsed and
 * serialised by the rules of `URLSearchParams` (WHATWG
 * application/x-www-form-urlencoded) but in plain JavaScript: the runtime's
 * `URLSearchParams`, like its `URL`, is a host object, and a world object
 * built one or two on every request.
 */

/** What reading a query needs; the runtime's `URLSearchParams` has this shape too. */
export interface QueryReader extends Iterable<[string, string]> {
  /** The first value given for `name`, or null. */
  get(name: string): string | null;
  getAll(name: string): string[];
  has(name: string): boolean;
  keys(): IterableIterator<string>;
  entries(): IterableIterator<[string, string]>;
  forEach(fn: (value: string, name: string) => void): void;
  toString(): string;
}

/** A query's name/value pairs, in order, duplicates kept. */
export class QueryParams implements QueryReader {
  private readonly pairs: [string, string][];

  /** From a query string (with or without its leading "?"), or from pairs. */
  constructor(init: string | Iterable<readonly [string, string]> = "") {
    // Another query's pairs are USVStrings already: copied as they are, without the iterator.
    if (init instanceof QueryParams) {
      this.pairs = init.pairs.map(([name, value]) => [name, value]);
      return;
    }
    if (typeof init !== "string") {
      this.pairs = [...init].map(([name, value]) => [usv(name), usv(value)]);
      return;
    }
    this.pairs = [];
    const text = init.startsWith("?") ? init.slice(1) : init;
    if (text === "") return;
    for (const piece of text.split("&")) {
      if (piece === "") continue;
      const eq = piece.indexOf("=");
      this.pairs.push(eq === -1 ? [decodeComponent(piece), ""] : [decodeComponent(piece.slice(0, eq)), decodeComponent(piece.slice(eq + 1))]);
    }
  }

  /** The query part of a URL string (what follows "?", without a fragment). */
  static ofUrl(url: string): QueryParams {
    const q = url.indexOf("?");
    if (q === -1) return new QueryParams();
    const hash = url.indexOf("#", q);
    return new QueryParams(url.slice(q + 1, hash === -1 ? undefined : hash));
  }

  get(name: string): string | null {
    for (const [n, v] of this.pairs) if (n === name) return v;
    return null;
  }

  getAll(name: string): string[] {
    return this.pairs.filter(([n]) => n === name).map(([, v]) => v);
  }

  has(name: string): boolean {
    return this.pairs.some(([n]) => n === name);
  }

  /** Sets `name` to one value: the first pair keeps its place, later ones go. */
  set(name: string, value: string): void {
    name = usv(name);
    value = usv(value);
    const at = this.pairs.findIndex(([n]) => n === name);
    if (at === -1) {
      this.pairs.push([name, value]);
      return;
    }
    this.pairs[at] = [name, value];
    for (let i = this.pairs.length - 1; i > at; i--) if (this.pairs[i][0] === name) this.pairs.splice(i, 1);
  }

  *keys(): IterableIterator<string> {
    for (const [n] of this.pairs) yield n;
  }

  *entries(): IterableIterator<[string, string]> {
    for (const [n, v] of this.pairs) yield [n, v];
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  forEach(fn: (value: string, name: string) => void): void {
    for (const [n, v] of this.pairs) fn(v, n);
  }

  /** Serialised as `URLSearchParams` does: spaces as "+", only `*-._` and alphanumerics left bare. */
  toString(): string {
    return this.pairs.map(([n, v]) => `${encodeComponent(n)}=${encodeComponent(v)}`).join("&");
  }
}

const HEX = /^[0-9a-fA-F]{2}$/;
// Without BOM: a leading U+FEFF is kept, as the form-urlencoded parser keeps it.
const utf8 = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
const toUtf8 = new TextEncoder();

/** "+" is a space; "%XX" a byte; the bytes are read as UTF-8, bad sequences replaced. */
function decodeComponent(raw: string): string {
  const spaced = raw.includes("+") ? raw.replaceAll("+", " ") : raw;
  if (!spaced.includes("%")) return spaced;
  const source = toUtf8.encode(spaced);
  const bytes = new Uint8Array(source.length);
  let n = 0;
  for (let i = 0; i < source.length; i++) {
    const hex = source[i] === 0x25 && i + 2 < source.length ? String.fromCharCode(source[i + 1], source[i + 2]) : "";
    if (HEX.test(hex)) {
      bytes[n++] = Number.parseInt(hex, 16);
      i += 2;
    } else bytes[n++] = source[i];
  }
  return utf8.decode(bytes.subarray(0, n));
}

const SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** As a USVString: lone surrogates become U+FFFD, as the runtime converts what it is given. */
function usv(s: string): string {
  const text = String(s);
  return SURROGATE.test(text) ? text.replace(LONE_SURROGATE, "\uFFFD") : text;
}

const BARE = /^[A-Za-z0-9*\-._]*$/;

function encodeComponent(s: string): string {
  if (BARE.test(s)) return s;
  return encodeURIComponent(s)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replaceAll("%20", "+");
}
