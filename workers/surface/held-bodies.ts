/**
 * @module held-bodies
 * Bodies of replayable answers, kept by the Worker that took the request so
 * a world's Durable Object need not send the same bytes again. Carrying a
 * 10 KB list page across the RPC costs the runtime some 25 µs, as much as
 * the rest of a replayed answer. The Worker names the body it holds for a
 * request (`VendorCall.heldTag`); the object, when its answer's body is that
 * one, answers `reuseHeld` and no bytes. The tag is a digest of the bytes,
 * so a stale or foreign entry can only ever miss. Every request still
 * reaches the object and is logged there; only the bytes stay put.
 */
import { replayKey } from "../engine/replay/replay-cache.ts";
import type { VendorAnswer } from "./vendor-answer.ts";
import type { VendorCall } from "./vendor-call.ts";

/** Bytes of held bodies, all told, before the oldest go. */
const HELD_BYTES = 16 * 1024 * 1024;

interface Held {
  tag: string;
  body: ArrayBuffer;
}

/** A call's request key and the body held for it when it went out. */
export interface Offer {
  key: string;
  held: Held | null;
}

/** One isolate's held bodies, by the request they answered. */
export class HeldBodies {
  private readonly entries = new Map<string, Held>();
  private bytes = 0;
  private readonly limit: number;

  constructor(limit = HELD_BYTES) {
    this.limit = limit;
  }

  /**
   * Names the body held for this call, if any (in `call.heldTag`). Null when
   * the call cannot be replayed; else what {@link settle} needs, the held
   * entry included (another answer may push it out meanwhile).
   */
  offer(call: VendorCall): Offer | null {
    if (call.method !== "GET" || call.head.byteLength !== 0 || call.rest !== null) return null;
    const key = replayKey(call.method, call.url, call.headers);
    const held = this.entries.get(key) ?? null;
    // Set only when there is one: the call crosses the RPC, every field with it.
    if (held) call.heldTag = held.tag;
    return { key, held };
  }

  /** The answer with its body in place: the held one when the object said so; a tagged body is kept for next time. */
  settle(offer: Offer | null, answer: VendorAnswer): VendorAnswer {
    if (offer === null) return answer;
    if (answer.reuseHeld) {
      if (!offer.held) throw new Error("a world answered with a held body where none was offered");
      return { ...answer, body: offer.held.body };
    }
    if (answer.bodyTag && answer.body) this.keep(offer.key, { tag: answer.bodyTag, body: answer.body });
    return answer;
  }

  private keep(key: string, held: Held): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.body.byteLength;
    }
    if (held.body.byteLength > this.limit) return;
    while (this.bytes + held.body.byteLength > this.limit) {
      const [oldest, entry] = this.entries.entries().next().value as [string, Held];
      this.entries.delete(oldest);
      this.bytes -= entry.body.byteLength;
    }
    this.entries.set(key, held);
    this.bytes += held.body.byteLength;
  }
}
