import { describe, expect, it } from "vitest";
import type { FaultScope } from "./define.ts";
import { writeAcceptedLater } from "./write-accepted-later.ts";

const fault = writeAcceptedLater.schema.parse({ kind: "write-accepted-later", id: "later", write: "offerGig", nth: 2, afterRequests: 2 });

function scope(): FaultScope {
  const memos = new Map<string, unknown>();
  return {
    memo: <T>(id: string, init: () => T): T => {
      if (!memos.has(id)) memos.set(id, init());
      return memos.get(id) as T;
    },
  } as unknown as FaultScope;
}

describe("the write-accepted-later fault", () => {
  it("takes only the nth call of its write for later, with its wait and a req_ request id", () => {
    const s = scope();
    const call = (name = "offerGig") => writeAcceptedLater.hooks.defersWrite!(fault, s, { name });
    expect(call("createWorker")).toBeNull();
    expect(call()).toBeNull();
    expect(call()).toEqual({ afterRequests: 2, requestIdField: "request_id", requestIdPrefix: "req_" });
    expect(call()).toBeNull();
    expect(call("createWorker")).toBeNull();
  });
});
