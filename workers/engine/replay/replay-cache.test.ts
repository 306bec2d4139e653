import { describe, expect, it } from "vitest";
import { type Replay, ReplayCache, replayKey } from "./replay-cache.ts";

const entry = (recordsVersion: number, tokenGeneration = 0): Replay => ({
  recordsVersion,
  tokenGeneration,
  status: 200,
  headers: { "content-type": "application/json; charset=utf-8" },
  body: new TextEncoder().encode("{}").buffer as ArrayBuffer,
  rowTail: ',"method":"GET"}',
});

describe("replay key", () => {
  it("tells apart requests that differ in any header name, value or order", () => {
    const base = replayKey("GET", "http://f/w/a/ats/v1/x", [
      ["a", "1"],
      ["b", "2"],
    ]);
    expect(
      replayKey("GET", "http://f/w/a/ats/v1/x", [
        ["a", "1"],
        ["b", "2"],
      ]),
    ).toBe(base);
    for (const other of [
      replayKey("GET", "http://f/w/a/ats/v1/x", [
        ["b", "2"],
        ["a", "1"],
      ]),
      replayKey("GET", "http://f/w/a/ats/v1/x", [
        ["a", "1"],
        ["b", "3"],
      ]),
      replayKey("GET", "http://f/w/a/ats/v1/x?b=2", [
        ["a", "1"],
        ["b", "2"],
      ]),
      replayKey("HEAD", "http://f/w/a/ats/v1/x", [
        ["a", "1"],
        ["b", "2"],
      ]),
    ])
      expect(other).not.toBe(base);
  });
});

describe("replay cache", () => {
  it("answers only while the records version and token generation stand", () => {
    const cache = new ReplayCache();
    cache.set("k", entry(3, 1));
    expect(cache.get("k", 3, 1)?.rowTail).toBe(',"method":"GET"}');
    expect(cache.get("k", 3, 2)).toBeUndefined();
    // A miss on a stale entry drops it.
    expect(cache.get("k", 3, 1)).toBeUndefined();
    cache.set("k", entry(3, 1));
    expect(cache.get("k", 4, 1)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("keeps at most its cap, the newest, and forgets everything on clear", () => {
    const cache = new ReplayCache(2);
    cache.set("a", entry(1));
    cache.set("b", entry(1));
    cache.set("c", entry(1));
    expect(cache.get("a", 1, 0)).toBeUndefined();
    expect(cache.get("b", 1, 0)).toBeDefined();
    expect(cache.get("c", 1, 0)).toBeDefined();
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it("holds at most its bytes, dropping the oldest, and never an entry larger than all of them", () => {
    const sized = (n: number): Replay => ({ ...entry(1), body: new ArrayBuffer(n) });
    const cache = new ReplayCache(64, 1000);
    cache.set("a", sized(400));
    cache.set("b", sized(400));
    cache.set("c", sized(400));
    expect(cache.get("a", 1, 0)).toBeUndefined();
    expect(cache.get("b", 1, 0)).toBeDefined();
    expect(cache.get("c", 1, 0)).toBeDefined();
    cache.set("huge", sized(2000));
    expect(cache.get("huge", 1, 0)).toBeUndefined();
    expect(cache.size).toBe(2);
  });
});
