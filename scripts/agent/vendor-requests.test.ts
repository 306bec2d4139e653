import { describe, expect, it } from "vitest";
import type { RequestLogEntry } from "../../evidence/logs.ts";
import { req } from "../../test/node/grading/log-fixtures.ts";
import { PROXY_SEQ_HEADER, type ProxyEntry } from "./sandbox/proxy.ts";
import type { TrajectoryEvent } from "./trajectory.ts";
import { tagRequests } from "./vendor-requests.ts";

const START = 1_000_000;
const call = (i: number, t: number, t_end: number | null): TrajectoryEvent => ({ i, t, kind: "tool_call", tool: "bash", input: {}, result: null, t_end });
const row = (seq: number): RequestLogEntry => ({
  seq,
  epoch: 0,
  ts: 0,
  method: "GET",
  path: "/x",
  query: {},
  headers: { [PROXY_SEQ_HEADER]: String(seq) },
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
});
const seen = (seq: number, atS: number): ProxyEntry => ({ seq, t: atS, atMs: START + atS * 1000, via: "farm", method: "GET", target: "/x", status: 200, refused: false });

describe("tagging vendor requests with the tool call that made them", () => {
  const events = [{ i: 0, t: 0, kind: "user", text: "go" } as TrajectoryEvent, call(1, 1, 3), call(2, 5, 9), call(3, 6, 7)];
  it("gives a request to the latest call in flight, to the nearest call within the slack, and to none beyond it", () => {
    const tagged = tagRequests([row(1), row(2), row(3), row(4), row(5)], [seen(1, 2), seen(2, 6.5), seen(3, 4.5), seen(4, 15), seen(5, 0.5)], events, START);
    expect(tagged.map((r) => r.event)).toEqual([1, 3, 2, null, 1]);
  });

  it("leaves a request the proxy did not tag untagged", () => {
    const untagged = { ...row(9), headers: {} };
    expect(tagRequests([untagged], [], events, START)[0].event).toBeNull();
  });
});
