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
import { SizedCache } from "../engine/replay/sized-cache.ts";
import type { VendorAnswer } from "./vendor-answer.ts";
import { isBodilessGet, type VendorCall } from "./vendor-call.ts";

/** Bytes of held bodies (and their keys), all told, before the oldest go. */
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
  private readonly entries: SizedCache<Held>;

  constructor(limit = HELD_BYTES) {
    // A key holds every header a client sent: it counts too (two bytes a character).
    this.entries = new SizedCache<Held>(Number.POSITIVE_INFINITY, limit, (key, held) => held.body.byteLength + 2 * key.length);
  }

  /**
   * Names the body held for this call, if any (in `call.heldTag`). Null when
   * the call cannot be replayed; else what {@link settle} needs, the held
   * entry included (another answer may push it out meanwhile).
   */
  offer(call: VendorCall): Offer | null {
    if (!isBodilessGet(call)) return null;
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
    if (answer.bodyTag && answer.body) this.entries.set(offer.key, { tag: answer.bodyTag, body: answer.body });
    return answer;
  }
}
