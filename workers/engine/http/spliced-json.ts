/**
 * @module spliced-json
 * A JSON body spliced from an envelope's two ends around a run of items that
 * many responses share (a cached list page). Its UTF-8 bytes are built from
 * the parts and kept on the shared run with the ends they were built with, so
 * a page served again in the same envelope goes out without its text or its
 * bytes being built again: for a 50-row page that is some 10 KB of each per
 * request, and the garbage collections they bring.
 */

const UTF8 = new TextEncoder();

/** The last body a run's bytes went out in. */
interface EncodedSplice {
  head: string;
  tail: string;
  /** UTF-8 lengths of `head` and `tail` within `bytes`. */
  headBytes: number;
  tailBytes: number;
  bytes: Uint8Array;
}

/** Items' JSON shared by many bodies; the splice remembers its last encoding on it. */
export interface SharedRun {
  /** The items' JSON text. */
  json: string;
  /** Set by {@link SplicedJson.bytes}; not for callers. */
  encoded?: EncodedSplice;
}

/** `head + run.json + tail`, all JSON text together. */
export class SplicedJson {
  readonly head: string;
  readonly run: SharedRun;
  readonly tail: string;

  constructor(head: string, run: SharedRun, tail: string) {
    this.head = head;
    this.run = run;
    this.tail = tail;
  }

  get text(): string {
    return `${this.head}${this.run.json}${this.tail}`;
  }

  /**
   * The body's UTF-8 bytes. The array may be the one an earlier body with the
   * same ends returned: read it, never write to it.
   */
  bytes(): Uint8Array {
    const last = this.run.encoded;
    if (last && last.head === this.head && last.tail === this.tail) return last.bytes;
    const head = UTF8.encode(this.head);
    const tail = UTF8.encode(this.tail);
    const items = last ? last.bytes.subarray(last.headBytes, last.bytes.byteLength - last.tailBytes) : UTF8.encode(this.run.json);
    const bytes = new Uint8Array(head.byteLength + items.byteLength + tail.byteLength);
    bytes.set(head);
    bytes.set(items, head.byteLength);
    bytes.set(tail, head.byteLength + items.byteLength);
    this.run.encoded = { head: this.head, tail: this.tail, headBytes: head.byteLength, tailBytes: tail.byteLength, bytes };
    return bytes;
  }
}
