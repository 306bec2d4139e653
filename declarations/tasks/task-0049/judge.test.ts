import { describe, expect, it } from "vitest";
import type { Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { canonicalHour, expectedLedger, fallBackDay, firstInstant, withOffset } from "./task.ts";

const wall = (text: string) => Date.parse(`${text}Z`);
const venue = (id: string, tz: string): SnapshotRecord => ({ id, deleted: false, record: { id, venue_tz: tz } });
const shift = (id: string, venueId: string, tz: string, startsAt: string, minutes: number, status = "completed", deleted = false): SnapshotRecord => ({
  id,
  deleted,
  record: { id, venue_id: venueId, venue_tz: tz, status, starts_at: startsAt, duration_minutes: minutes },
});
const snap = (venues: SnapshotRecord[], shifts: SnapshotRecord[]): Snapshot => ({ checkpoint: 1, epoch: 1, entities: { venue: venues, shift: shifts } });

describe("task-0049's clock arithmetic", () => {
  it("reads a wall time the clock showed twice as the first of the two", () => {
    expect(new Date(firstInstant(wall("2025-10-26T01:30:00"), "Europe/London")!).toISOString()).toBe("2025-10-26T00:30:00.000Z");
    expect(new Date(firstInstant(wall("2025-10-26T02:30:00"), "Europe/Berlin")!).toISOString()).toBe("2025-10-26T00:30:00.000Z");
    expect(new Date(firstInstant(wall("2025-11-02T01:30:00"), "America/Chicago")!).toISOString()).toBe("2025-11-02T06:30:00.000Z");
    expect(new Date(firstInstant(wall("2025-10-25T22:00:00"), "Europe/London")!).toISOString()).toBe("2025-10-25T21:00:00.000Z");
  });

  it("finds each zone's own fall-back night", () => {
    expect(new Date(fallBackDay("Europe/Dublin")!).toISOString().slice(0, 10)).toBe("2025-10-26");
    expect(new Date(fallBackDay("America/New_York")!).toISOString().slice(0, 10)).toBe("2025-11-02");
    expect(fallBackDay("Asia/Tokyo")).toBeNull();
  });

  it("writes an hour with the offset its clock had then", () => {
    expect(withOffset(Date.parse("2025-10-26T00:00:00Z"), "Europe/London")).toBe("2025-10-26T01:00:00+01:00");
    expect(withOffset(Date.parse("2025-10-26T01:00:00Z"), "Europe/London")).toBe("2025-10-26T01:00:00+00:00");
    expect(withOffset(Date.parse("2025-11-02T06:00:00Z"), "America/New_York")).toBe("2025-11-02T01:00:00-05:00");
  });

  it("takes every spelling of an hour's start the ticket's words allow", () => {
    expect(canonicalHour("2025-10-26T01:00Z")).toBe("2025-10-26T01:00:00+00:00");
    expect(canonicalHour("2025-10-26T01:00:00.000-0400")).toBe("2025-10-26T01:00:00-04:00");
    expect(canonicalHour("2025-10-26T01:00:30+01:00")).toBe("2025-10-26T01:00:30+01:00");
  });
});

describe("task-0049's expected ledger", () => {
  const truth = snap(
    [venue("ven_0001", "Europe/London"), venue("ven_0002", "America/Chicago")],
    [
      // 22:00 BST for 5 hours of real time: through both 01:00 hours, ends 02:00 GMT.
      shift("shf_1", "ven_0001", "Europe/London", "2025-10-25T22:00:00", 300),
      // Starts at the first 01:30 (BST), on the floor for 30 minutes of each 01:00 hour.
      shift("shf_2", "ven_0001", "Europe/London", "2025-10-26T01:30:00", 60),
      // A draft, a deleted shift and another venue's shift never count.
      shift("shf_3", "ven_0001", "Europe/London", "2025-10-26T00:00:00", 600, "draft"),
      shift("shf_4", "ven_0001", "Europe/London", "2025-10-26T00:00:00", 600, "published", true),
      shift("shf_5", "ven_0002", "America/Chicago", "2025-11-01T23:00:00", 120),
    ],
  );
  const rows = expectedLedger(truth);

  it("lists each real hour of each venue's own night, the repeated one twice", () => {
    expect(rows.filter((r) => r.venue_id === "ven_0001").map((r) => [r.hour_start, r.shifts_on])).toEqual([
      ["2025-10-26T00:00:00+01:00", 1],
      ["2025-10-26T01:00:00+01:00", 2],
      ["2025-10-26T01:00:00+00:00", 2],
      ["2025-10-26T02:00:00+00:00", 0],
      ["2025-10-26T03:00:00+00:00", 0],
      ["2025-10-26T04:00:00+00:00", 0],
      ["2025-10-26T05:00:00+00:00", 0],
    ]);
    expect(rows.filter((r) => r.venue_id === "ven_0002").map((r) => [r.hour_start, r.shifts_on])).toEqual([
      ["2025-11-02T00:00:00-05:00", 1],
      ["2025-11-02T01:00:00-05:00", 0],
      ["2025-11-02T01:00:00-06:00", 0],
      ["2025-11-02T02:00:00-06:00", 0],
      ["2025-11-02T03:00:00-06:00", 0],
      ["2025-11-02T04:00:00-06:00", 0],
      ["2025-11-02T05:00:00-06:00", 0],
    ]);
  });
});
