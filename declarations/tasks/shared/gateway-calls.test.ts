import { describe, expect, it } from "vitest";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { Snapshot } from "../../../evidence/verdict.ts";
import { callElement, callsOperation, rereads } from "./gateway-calls.ts";

const PATH = "/services/Gateway.asmx";
let seq = 0;
function call(operation: string, params: string, over: Partial<RequestLogEntry> = {}): RequestLogEntry {
  const body = `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><pg:${operation} xmlns:pg="urn:x">${params}</pg:${operation}></soap:Body></soap:Envelope>`;
  return {
    seq: ++seq,
    epoch: 1,
    ts: seq,
    method: "POST",
    path: PATH,
    query: {},
    headers: {},
    body,
    bodyBytes: body.length,
    bodyNote: null,
    bodySha256: null,
    status: 200,
    authOutcome: "ok",
    rateLimited: false,
    retryAfter: null,
    idempotencyKey: null,
    faults: [],
    lies: [],
    ...over,
  } as RequestLogEntry;
}

describe("callsOperation and callElement", () => {
  it("find the operation and an element's text, prefixed or not", () => {
    const r = call("ListEmployees", "<pg:start>0</pg:start><changedSince> 2024-03-10T00:00:00Z </changedSince>");
    expect(callsOperation(r, "ListEmployees")).toBe(true);
    expect(callsOperation(r, "ListEmployee")).toBe(false);
    expect(callsOperation(r, "ListAssignments")).toBe(false);
    expect(callElement(r, "changedSince")).toBe("2024-03-10T00:00:00Z");
    expect(callElement(r, "start")).toBe("0");
    expect(callElement(r, "count")).toBeNull();
  });
});

describe("rereads", () => {
  const record = (id: string, changed: string, deleted = false) => ({ id, deleted, record: { id, last_changed: changed } });
  const truth = {
    checkpoint: 2,
    epoch: 1,
    entities: {
      employee: [record("e1", "2024-03-01T00:00:00Z"), record("e2", "2024-03-05T00:00:00+05:00"), record("e3", "2024-03-09T00:00:00Z"), record("e4", "2024-03-20T00:00:00Z", true)],
    },
  } as Snapshot;
  const rule = { path: PATH, lists: [{ operation: "ListEmployees", entity: "employee" }], sinceElement: "changedSince", changedField: "last_changed" };

  it("passes a call whose filter returns at most half the live records", () => {
    expect(rereads([call("ListEmployees", "<changedSince>2024-03-04T21:00:00Z</changedSince>")], rule, truth)).toEqual({ reads: 1, again: [] });
  });
  it("flags a call without the filter, with a filter the vendor ignores, or with one so early it returns most records", () => {
    const out = rereads(
      [
        call("ListEmployees", "<start>0</start>"),
        call("ListEmployees", "<modifiedSince>2024-03-08T00:00:00Z</modifiedSince>"),
        call("ListEmployees", "<changedSince>2000-01-01T00:00:00Z</changedSince>"),
      ],
      rule,
      truth,
    );
    expect(out.reads).toBe(3);
    expect(out.again).toHaveLength(3);
    expect(out.again[2]).toContain("3 of 3 records");
  });
  it("counts only answered calls of the listed operations at the gateway", () => {
    const out = rereads([call("ListEmployees", "", { status: 429 }), call("ListDeletions", ""), call("ListEmployees", "", { path: "/other" })], rule, truth);
    expect(out).toEqual({ reads: 0, again: [] });
  });
});
