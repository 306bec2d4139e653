import { describe, expect, it } from "vitest";
import sourcewell from "../../../declarations/vendors/sourcewell.ts";
import { DeclarationError, parseVendor } from "../../../declarations/schema/define.ts";
import { checkpointTime } from "./clock.ts";
import { buildState, type StateRecord } from "./generate.ts";

// Sourcewell's checkpoint 5 ends memberships: four that are the newest of their pool, then fourteen
// of any, the first five of those added again (declarations/vendors/sourcewell.ts). Ending one ends
// every open membership of the same person in the same pool.
const CP = 5;
const members = (records: StateRecord[]) => records.filter((r) => r.entity === "member" && r.deletedMs === null);

describe("the end mutation (records kept listed with an end stamp, some followed by a new one)", () => {
  it.each([7, 11, 101])("seed %i: ended memberships stay live, stamped within the interval, and re-adds copy pool and person after the end", (seed) => {
    const before = members(buildState(sourcewell, seed, CP - 1));
    const after = members(buildState(sourcewell, seed, CP));
    expect(before.every((m) => m.data.ra === null)).toBe(true);
    const kept = after.slice(0, before.length);
    expect(kept.map((m) => m.id)).toEqual(before.map((m) => m.id));
    const ended = kept.filter((m) => m.data.ra !== null);
    // Eighteen picks, each ending every open membership of that person in that pool.
    expect(ended.length).toBeGreaterThanOrEqual(18);
    for (const m of kept) {
      const siblings = kept.filter((o) => o.data.pid === m.data.pid && o.data.tid === m.data.tid);
      if (m.data.ra !== null) expect(siblings.every((o) => o.data.ra !== null)).toBe(true);
    }
    const [from, to] = [checkpointTime(sourcewell.clock, CP - 1), checkpointTime(sourcewell.clock, CP)];
    for (const m of ended) {
      expect(Number(m.data.ra)).toBeGreaterThan(from);
      expect(Number(m.data.ra)).toBeLessThanOrEqual(to);
      expect(m.updatedMs).toBe(m.data.ra);
    }
    const again = after.slice(before.length);
    expect(again.length).toBeGreaterThan(0);
    expect(again.length).toBeLessThanOrEqual(5);
    for (const a of again) {
      expect(a.data.ra).toBeNull();
      const was = ended.filter((m) => m.data.pid === a.data.pid && m.data.tid === a.data.tid);
      expect(was.length).toBeGreaterThan(0);
      expect(Number(a.data.ca)).toBeGreaterThan(Math.min(...was.map((m) => Number(m.data.ra))));
      expect(Number(a.data.ca)).toBeLessThanOrEqual(to);
    }
  });

  it("the newest-per-parent ends take out the latest addition of their pool", () => {
    const before = members(buildState(sourcewell, 7, CP - 1));
    const after = members(buildState(sourcewell, 7, CP));
    const latest = new Map<string, StateRecord>();
    for (const m of before) {
      const held = latest.get(String(m.data.pid));
      if (!held || Number(m.data.ca) > Number(held.data.ca)) latest.set(String(m.data.pid), m);
    }
    const endedLatest = [...latest.values()].filter((m) => after.find((a) => a.id === m.id)!.data.ra !== null);
    expect(endedLatest.length).toBeGreaterThanOrEqual(4);
  });

  it("a declaration must end a nullable timestamp that starts null, and re-add no more than it ends", () => {
    const v = structuredClone(sourcewell) as unknown as { timeline: unknown[] };
    v.timeline = [...v.timeline, { checkpoint: 7, mutations: [{ op: "end", entity: "member", count: 2, field: "ca", readd: 3 }] }];
    let message = "";
    try {
      parseVendor(v, "end test");
    } catch (err) {
      expect(err).toBeInstanceOf(DeclarationError);
      message = (err as Error).message;
    }
    expect(message).toContain('"ca" must be a nullable timestamp that starts null (nullRate 1) to record an end');
    expect(message).toContain("readd cannot exceed count");
  });

  it.each([7, 11, 101])("seed %i: ends scheduled ahead (checkpoint 6) are recorded in the interval but stamped years later, and re-add nothing", (seed) => {
    const before = members(buildState(sourcewell, seed, 5));
    const after = members(buildState(sourcewell, seed, 6));
    expect(after.map((m) => m.id)).toEqual(before.map((m) => m.id));
    const [from, to] = [checkpointTime(sourcewell.clock, 5), checkpointTime(sourcewell.clock, 6)];
    const booked = after.filter((m, i) => before[i].data.ra === null && m.data.ra !== null);
    expect(booked.length).toBeGreaterThanOrEqual(12);
    for (const m of booked) {
      expect(Number(m.data.ra)).toBeGreaterThanOrEqual(to + 3000 * 86_400_000);
      expect(m.updatedMs).toBeGreaterThan(from);
      expect(m.updatedMs).toBeLessThanOrEqual(to);
    }
    // Earlier ends keep their stamps.
    after.forEach((m, i) => {
      if (before[i].data.ra !== null) expect(m.data.ra).toBe(before[i].data.ra);
    });
  });

  it("an end scheduled ahead must give [min, max] days and re-add nothing", () => {
    const v = structuredClone(sourcewell) as unknown as { timeline: unknown[] };
    v.timeline = [...v.timeline, { checkpoint: 7, mutations: [{ op: "end", entity: "member", count: 2, field: "ra", readd: 1, dueInDays: [9, 3] }] }];
    let message = "";
    try {
      parseVendor(v, "end test");
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain("dueInDays is [min, max]");
    expect(message).toContain("an end scheduled ahead re-adds nothing");
  });
});
