import { describe, expect, it } from "vitest";
import type { FaultScope } from "./define.ts";
import { staleRead } from "./stale-read.ts";

const fault = { kind: "stale-read" as const, id: "stale", afterRequests: 0, resource: "candidate" };

/** A scope whose memos go through JSON between turns, as the fault runtime keeps them across an eviction. */
function evictingScope(): FaultScope & { evict(): void } {
  let memos = new Map<string, unknown>();
  const scope = {
    reached: () => true,
    memo: <T>(id: string, init: () => T): T => {
      if (!memos.has(id)) memos.set(id, init());
      return memos.get(id) as T;
    },
    evict: () => {
      memos = new Map(JSON.parse(JSON.stringify([...memos])));
    },
  };
  return scope as unknown as FaultScope & { evict(): void };
}

describe("the stale-read fault", () => {
  it("serves the first answer again, also after its memory went through an eviction", () => {
    const s = evictingScope();
    const hooks = staleRead.hooks;
    const read = (id: string, nowMs: number) => hooks.onRead!(fault, s, { resource: "candidate", id, noCache: false, nowMs });
    expect(read("c1", 1_000)).toBeNull();
    hooks.afterRead!(fault, s, { resource: "candidate", id: "c1", body: { v: 1 }, etag: '"v1"', nowMs: 1_000 });
    hooks.afterRead!(fault, s, { resource: "candidate", id: "c1", body: { v: 2 }, etag: '"v2"', nowMs: 5_000 });
    s.evict();
    expect(read("c1", 8_000)).toEqual({ status: 200, body: { v: 1 }, headers: { etag: '"v1"', age: "7", warning: '110 - "Response is stale"' } });
    expect(hooks.onRead!(fault, s, { resource: "candidate", id: "c1", noCache: true, nowMs: 8_000 })).toBeNull();
  });

  it("treats record ids that name object properties as ordinary ids", () => {
    const s = evictingScope();
    for (const id of ["constructor", "__proto__", "toString"]) expect(staleRead.hooks.onRead!(fault, s, { resource: "candidate", id, noCache: false, nowMs: 0 })).toBeNull();
    staleRead.hooks.afterRead!(fault, s, { resource: "candidate", id: "__proto__", body: { v: 1 }, etag: '"p"', nowMs: 0 });
    s.evict();
    expect(staleRead.hooks.onRead!(fault, s, { resource: "candidate", id: "__proto__", noCache: false, nowMs: 0 })?.body).toEqual({ v: 1 });
    expect(staleRead.hooks.onRead!(fault, s, { resource: "candidate", id: "constructor", noCache: false, nowMs: 0 })).toBeNull();
  });
});
