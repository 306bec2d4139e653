import { describe, expect, it } from "vitest";
import { replayKey } from "../engine/replay/replay-cache.ts";
import { HeldBodies } from "./held-bodies.ts";
import type { VendorAnswer } from "./vendor-answer.ts";
import type { VendorCall } from "./vendor-call.ts";

const call = (over: Partial<VendorCall> = {}): VendorCall => ({
  method: "GET",
  url: "http://f/w/a/ats/v1/x",
  origin: "http://f",
  path: "/v1/x",
  headers: [["x-api-key", "k"]],
  head: new Uint8Array(0),
  rest: null,
  ...over,
});
const bytes = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;
const text = (body: ArrayBuffer | null) => (body === null ? null : new TextDecoder().decode(body));
const answer = (over: Partial<VendorAnswer>): VendorAnswer => ({ status: 200, headers: {}, body: null, cutAfterBytes: null, ...over });

describe("held bodies", () => {
  it("offer the tag of the body kept for the same request, and put it back when the world says so", () => {
    const held = new HeldBodies();
    const first = call();
    const offer = held.offer(first);
    expect(first.heldTag).toBeUndefined();
    expect(text(held.settle(offer, answer({ body: bytes("page one"), bodyTag: "t1" })).body)).toBe("page one");

    const again = call();
    const second = held.offer(again);
    expect(again.heldTag).toBe("t1");
    expect(text(held.settle(second, answer({ reuseHeld: true })).body)).toBe("page one");
    // Another request (a header differs) holds nothing.
    const other = call({ headers: [["x-api-key", "other"]] });
    held.offer(other);
    expect(other.heldTag).toBeUndefined();
  });

  it("never offer for a request that cannot be replayed, and refuse a reuse nothing was offered for", () => {
    const held = new HeldBodies();
    expect(held.offer(call({ method: "POST" }))).toBeNull();
    expect(held.offer(call({ head: new Uint8Array([1]) }))).toBeNull();
    const offer = held.offer(call());
    expect(() => held.settle(offer, answer({ reuseHeld: true }))).toThrow(/held body/);
  });

  it("put back the body held when the call went out, even if it has been pushed out since", () => {
    // Room for one entry, key included (two bytes a character), not two.
    const one = 8 + 2 * defaultKey().length;
    const held = new HeldBodies(one + 4);
    held.settle(held.offer(call()), answer({ body: bytes("12345678"), bodyTag: "a" }));
    const offer = held.offer(call());
    held.settle(held.offer(call({ url: "http://f/w/a/ats/v1/y" })), answer({ body: bytes("abcdefgh"), bodyTag: "b" }));
    expect(held.offer(call())?.held).toBeNull();
    expect(text(held.settle(offer, answer({ reuseHeld: true })).body)).toBe("12345678");
  });

  it("count a request's headers against the budget: a client cannot fill memory with long keys", () => {
    const held = new HeldBodies(1024);
    const long = call({ headers: [["x-pad", "p".repeat(600)]] });
    held.settle(held.offer(long), answer({ body: bytes("tiny"), bodyTag: "t" }));
    expect(held.offer(call({ headers: [["x-pad", "p".repeat(600)]] }))?.held).toBeNull();
  });
});

/** The key of the default call, as the held bodies make it. */
function defaultKey(): string {
  return replayKey(call().method, call().url, call().headers);
}
