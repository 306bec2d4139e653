/**
 * @module replay-cache
 * Answers a read that was answered before, byte for byte, without serving it
 * again. A client polling or paging hits the same URL with the same headers
 * many times; while nothing the first answer depended on has changed, the
 * second answer (and its log row, but for its sequence number and time) is
 * the first one's.
 *
 * What an answer may depend on is settled by the engine and the handler
 * together: the engine replays only GETs without a body, in a world with no
 * armed fault, whose authentication read neither the clock nor a token (the
 * rate limit still counts every replay, and a refused one is served afresh);
 * the handler marks its reply replayable only when it depends on the request
 * line, the headers and the store's version alone (no clock, no request
 * count, no sequence number). An entry is keyed by the whole request
 * (method, URL, every header) and holds while the records' version and the
 * token ledger's generation stand; any request that is not a read clears
 * every entry.
 */

import { SizedCache } from "./sized-cache.ts";

/** A remembered answer and the row text it was logged with (no faults: worlds with armed faults do not replay). */
export interface Replay {
  /** Records version the answer was built at. */
  recordsVersion: number;
  /** Token ledger generation at the time (live tokens decide what a log row redacts). */
  tokenGeneration: number;
  status: number;
  /** Response headers but `date` and the vendor's server-time header, which every answer sets afresh, as do the rate limit's. */
  headers: Record<string, string>;
  /** Shared between answers: never written to. */
  body: ArrayBuffer | null;
  /**
   * Digest of `body`, under which the Worker that took the request may hold
   * it (see `surface/held-bodies.ts`); taken at the first replay, so a read
   * that is never repeated does not pay for it.
   */
  bodyTag?: string;
  /** The log row's JSON after its `ts` field (`,"method":...}`). */
  rowTail: string;
}

/**
 * The request a replay is keyed by: method, URL and every header, in order.
 * Unambiguous as HTTP has it: a URL holds no newline, a header name no colon
 * and a value no newline.
 */
export function replayKey(method: string, url: string, headers: readonly (readonly [string, string])[]): string {
  let key = `${method} ${url}`;
  for (const [name, value] of headers) key += `\n${name}:${value}`;
  return key;
}

/** Bytes an entry holds: its body, and its key and row text (two bytes a character). */
function footprint(key: string, replay: Replay): number {
  return (replay.body?.byteLength ?? 0) + 2 * (key.length + replay.rowTail.length);
}

/**
 * The remembered answers of one engine: at most `cap` of them and
 * `maxBytes` all told (the oldest go first). Every world of a local farm
 * shares one process, so each keeps little: a client that repeats a read
 * repeats a few.
 */
export class ReplayCache {
  private readonly entries: SizedCache<Replay>;

  constructor(cap = 64, maxBytes = 512 * 1024) {
    this.entries = new SizedCache(cap, maxBytes, footprint);
  }

  /** The answer remembered for `key`, if it still holds for these versions. */
  get(key: string, recordsVersion: number, tokenGeneration: number): Replay | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    if (hit.recordsVersion === recordsVersion && hit.tokenGeneration === tokenGeneration) return hit;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, replay: Replay): void {
    this.entries.set(key, replay);
  }

  /** Forgets every answer (a request that may change state was served). */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
