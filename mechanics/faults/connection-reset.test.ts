import { describe, expect, it } from "vitest";
import { connectionReset, onRoute } from "./connection-reset.ts";
import type { FaultScope } from "./define.ts";

/** A scope past every trigger that counts the uses of each fault. */
function scope(): FaultScope {
  const used = new Map<string, number>();
  return {
    reached: () => true,
    takeOne: (id: string, count: number) => {
      const n = used.get(id) ?? 0;
      if (n >= count) return false;
      used.set(id, n + 1);
      return true;
    },
  } as unknown as FaultScope;
}

describe("connection-reset", () => {
  it("matches a route template segment by segment", () => {
    expect(onRoute("/v2/exports/:id/file", "/v2/exports/exp_1/file")).toBe(true);
    expect(onRoute("/v2/exports/:id/file", "/v2/exports/exp_1/file/")).toBe(true);
    expect(onRoute("/v2/exports/:id/file", "/v2/exports/exp_1")).toBe(false);
    expect(onRoute("/v2/exports/:id/file", "/v2/exports//file")).toBe(false);
    expect(onRoute("/v2/exports/:id/file", "/v2/exports/exp_1/file/x")).toBe(false);
  });

  it("with `only`, cuts answers on that route alone and spends no use on the others", () => {
    const f = connectionReset.schema.parse({ kind: "connection-reset", id: "cut", afterRequests: 0, only: "/v2/exports/:id/file", count: 1 });
    const s = scope();
    const respond = (path: string) => connectionReset.hooks.onRespond?.(f, s, { bodyBytes: 100, path }) ?? null;
    expect(respond("/v2/exports")).toBeNull();
    expect(respond("/v2/exports/exp_1")).toBeNull();
    expect(respond("/v2/exports/exp_1/file")).toEqual({ cutAfterBytes: 50 });
    expect(respond("/v2/exports/exp_1/file")).toBeNull();
  });

  it("without `only`, cuts the next answer whatever its route", () => {
    const f = connectionReset.schema.parse({ kind: "connection-reset", id: "cut", afterRequests: 0, count: 1 });
    const s = scope();
    expect(connectionReset.hooks.onRespond?.(f, s, { bodyBytes: 10, path: "/v2/notes" })).toEqual({ cutAfterBytes: 5 });
  });
});
