import { describe, expect, it } from "vitest";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import { afterCommitFault, committedWrites } from "./committed-writes.ts";

const FAULT = "stage-500-after-commit";
const rule = { isCall: (r: RequestLogEntry) => r.method === "POST" && r.path.endsWith("/stage"), windowS: 60, afterCommitFaults: [FAULT] };
let seq = 0;
const req = (r: Partial<RequestLogEntry>): RequestLogEntry => {
  seq += 1;
  return {
    seq,
    epoch: 1,
    ts: seq,
    method: "POST",
    path: "/v1/candidates/c1/stage",
    query: {},
    headers: {},
    body: null,
    bodyBytes: 0,
    bodyNote: null,
    bodySha256: null,
    status: 200,
    authOutcome: "ok",
    rateLimited: false,
    retryAfter: null,
    idempotencyKey: null,
    faults: [],
    lies: [],
    ...r,
  };
};
const seqs = (rs: RequestLogEntry[]) => rs.map((r) => r.seq);

describe("committedWrites", () => {
  it("counts 2xx calls and after-commit 5xx, not other 5xx, refusals or other routes", () => {
    const log = [
      req({}),
      req({ status: 500, faults: [FAULT] }),
      req({ status: 500 }),
      req({ status: 429, rateLimited: true }),
      req({ status: 401, authOutcome: "missing" }),
      req({ method: "GET" }),
      req({ path: "/v1/candidates" }),
    ];
    expect(seqs(committedWrites(log, rule))).toEqual([log[0].seq, log[1].seq]);
  });
  it("takes a key's replay inside the window as no write, and a reuse after it as a new one", () => {
    const log = [req({ idempotencyKey: "k", ts: 10 }), req({ idempotencyKey: "k", ts: 70 }), req({ idempotencyKey: "k", ts: 71 })];
    expect(seqs(committedWrites(log, rule))).toEqual([log[0].seq, log[2].seq]);
  });
  it("stores a key only for answers below 500 or after commit, so a retry after a plain 500 commits", () => {
    const log = [req({ idempotencyKey: "k", status: 500 }), req({ idempotencyKey: "k" }), req({ idempotencyKey: "j", status: 500, faults: [FAULT] }), req({ idempotencyKey: "j" })];
    expect(seqs(committedWrites(log, rule))).toEqual([log[1].seq, log[2].seq]);
  });
  it("keys are per epoch, and the log is read in seq order", () => {
    const a = req({ idempotencyKey: "k", epoch: 1 });
    const b = req({ idempotencyKey: "k", epoch: 2 });
    expect(seqs(committedWrites([b, a], rule))).toEqual([a.seq, b.seq]);
  });
});

describe("afterCommitFault", () => {
  it("is a 5xx that one of the rule's faults produced", () => {
    expect(afterCommitFault(req({ status: 500, faults: [FAULT] }), rule)).toBe(true);
    expect(afterCommitFault(req({ status: 200, faults: [FAULT] }), rule)).toBe(false);
    expect(afterCommitFault(req({ status: 503, faults: ["other"] }), rule)).toBe(false);
  });
});
