import { describe, expect, it } from "vitest";
import { settle, type WorldActivity } from "./settle.ts";

/** Plays readings one per poll on a fake clock (50 ms a poll); the last repeats. */
function world(readings: WorldActivity[]) {
  let t = 0;
  let i = 0;
  const reads: number[] = [];
  return {
    reads,
    opts: { now: () => t, sleep: async (ms: number) => void (t += ms), pollMs: 50, quietMs: 400, timeoutMs: 30_000 },
    read: async () => {
      reads.push(t);
      return readings[Math.min(i++, readings.length - 1)];
    },
    at: () => t,
  };
}
const quiet = (requests: string): WorldActivity => ({ pending: 0, requests });

describe("settle", () => {
  it("returns once nothing is pending and the requests have stood still for quietMs", async () => {
    const w = world([{ pending: 2, requests: "ats:1:5" }, { pending: 1, requests: "ats:1:5" }, quiet("ats:1:5")]);
    expect(await settle(w.read, w.opts)).toBe(true);
    // pending at 0 and 50 ms; quiet from 100 ms; settled at the first reading 400 ms later
    expect(w.at()).toBe(500);
  });

  it("waits out a listener that acknowledged first and is still reading", async () => {
    const w = world([quiet("ats:1:5"), quiet("ats:1:6"), quiet("ats:1:7"), quiet("ats:1:7")]);
    expect(await settle(w.read, w.opts)).toBe(true);
    // the last request moved at 100 ms: quiet is counted from there
    expect(w.at()).toBe(500);
  });

  it("starts the quiet over when a write of the connector queues a new delivery", async () => {
    const w = world([quiet("ats:1:5"), ...Array(6).fill(quiet("ats:1:5")), { pending: 1, requests: "ats:1:6" }, quiet("ats:1:6")]);
    expect(await settle(w.read, w.opts)).toBe(true);
    expect(w.at()).toBe(350 + 50 + 400);
  });

  it("gives up at the timeout, saying so", async () => {
    const w = world([{ pending: 1, requests: "" }]);
    expect(await settle(w.read, { ...w.opts, timeoutMs: 1000 })).toBe(false);
    expect(w.at()).toBe(1050);
  });
});
