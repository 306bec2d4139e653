import { describe, expect, it } from "vitest";
import { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ScenarioEvidence } from "../../../evidence/verdict.ts";
import { type Delivery, answered2xx, authentic, authenticEvents, deliveries, deliveryChecks } from "./deliveries.ts";

let seq = 0;
const delivery = (d: Partial<Delivery>): Delivery => ({
  seq: ++seq,
  epoch: 1,
  ts: 0,
  eventId: "evt_00001",
  attempt: 1,
  target: "http://127.0.0.1/webhooks",
  responseCode: 200,
  statusCode: 200,
  tampered: false,
  skewS: 0,
  duplicate: false,
  via: "direct",
  acked: null,
  ...d,
});
const bases = { acknowledged: { ticket: "Acknowledge with a 2xx." }, refused: { ticket: "Refuse anything else with a 4xx." } };

describe("authentic", () => {
  it("is a genuine signature inside the skew window, either side", () => {
    expect(authentic(delivery({ skewS: 300 }), 300)).toBe(true);
    expect(authentic(delivery({ skewS: -300 }), 300)).toBe(true);
    expect(authentic(delivery({ skewS: 301 }), 300)).toBe(false);
    expect(authentic(delivery({ tampered: true }), 300)).toBe(false);
  });
  it("collects the events delivered authentically at least once", () => {
    const log = [delivery({ eventId: "a", tampered: true }), delivery({ eventId: "b" }), delivery({ eventId: "b", duplicate: true }), delivery({ eventId: "c", skewS: 900 })];
    expect([...authenticEvents(log, 300)]).toEqual(["b"]);
  });
});

describe("deliveries", () => {
  it("reads a role's log, none when it has no listener", () => {
    const log = [delivery({})];
    const e = { webhooks: { ats: log } } as unknown as ScenarioEvidence;
    expect(deliveries(e, "ats")).toBe(log);
    expect(deliveries(e, "crm")).toEqual([]);
  });
});

describe("answered2xx", () => {
  it("is 200-299 only; no answer is not one", () => {
    expect([199, 200, 204, 299, 300, 404].map(answered2xx)).toEqual([false, true, true, true, false, false]);
    expect(answered2xx(null)).toBe(false);
  });
});

describe("deliveryChecks", () => {
  const run = (log: Delivery[]) => {
    const c = new CheckRecorder();
    deliveryChecks(c, log, 300, bases);
    return Object.fromEntries(c.checks.map((k) => [k.name, k]));
  };
  it("passes a listener that took in the genuine and refused the bogus", () => {
    const checks = run([delivery({}), delivery({ tampered: true, responseCode: 401 }), delivery({ skewS: 900, responseCode: 400 })]);
    expect(checks.authentic_deliveries_acknowledged).toMatchObject({ ok: true, level: "l2", value: 1, basis: bases.acknowledged, detail: "1 authentic deliveries answered 2xx" });
    expect(checks.refusals_answered_4xx).toMatchObject({ ok: true, level: "l2", value: 1, basis: bases.refused, detail: "2 forged or stale deliveries answered 4xx" });
  });
  it("fails a genuine delivery answered 500 and a forgery answered 200, naming them", () => {
    const checks = run([delivery({ eventId: "evt_00007", responseCode: 500 }), delivery({ tampered: true, responseCode: 200 })]);
    expect(checks.authentic_deliveries_acknowledged).toMatchObject({ ok: false, value: 0, detail: "1 of 1 authentic deliveries answered 500 (first evt_00007)" });
    expect(checks.refusals_answered_4xx).toMatchObject({ ok: false, value: 0, detail: "1 of 1 forged or stale deliveries answered 200" });
  });
  it("records nothing without the deliveries a check judges; an unanswered forgery is not judged", () => {
    expect(run([])).toEqual({});
    expect(Object.keys(run([delivery({ tampered: true, responseCode: null })]))).toEqual([]);
  });
});
