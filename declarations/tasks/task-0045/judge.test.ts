import { describe, expect, it } from "vitest";
import type { Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { expectedTimesheet, noteText } from "./task.ts";

const shift = (id: string, tz: string, startsAt: string, minutes: number, status = "completed", deleted = false, worker = "wkr_000001"): SnapshotRecord => ({
  id,
  deleted,
  record: { id, venue_id: "ven_0001", venue_tz: tz, worker_id: worker, status, starts_at: startsAt, duration_minutes: minutes },
});
const snap = (shifts: SnapshotRecord[]): Snapshot => ({ checkpoint: 1, epoch: 1, entities: { shift: shifts } });

describe("task-0045's expected timesheet", () => {
  it("splits a shift at its venue's midnight by real minutes and keeps to the pay week", () => {
    const rows = expectedTimesheet(
      snap([
        // Friday 22:00 for 6 hours: 120 on Friday, 240 on Saturday.
        shift("shf_1", "Europe/London", "2025-10-24T22:00:00", 360),
        // Saturday 22:00 BST for 10 hours across the clocks going back: 120 on Saturday, 480 on Sunday.
        shift("shf_2", "Europe/London", "2025-10-25T22:00:00", 600),
        // Sunday 19 October 23:00 in Chicago: only its Monday minutes are in the week.
        shift("shf_3", "America/Chicago", "2025-10-19T23:00:00", 300),
        // Sunday 26 October 20:00: the Monday after is outside the week.
        shift("shf_4", "America/New_York", "2025-10-26T20:00:00", 480, "completed", false, "wkr_000002"),
        // Not completed, or deleted: not on the timesheet.
        shift("shf_5", "Europe/London", "2025-10-22T09:00:00", 480, "in_progress"),
        shift("shf_6", "Europe/London", "2025-10-22T09:00:00", 480, "completed", true),
      ]),
    );
    expect(rows.map((r) => [r.worker_id, r.date, r.minutes])).toEqual([
      ["wkr_000001", "2025-10-20", 240],
      ["wkr_000001", "2025-10-24", 120],
      ["wkr_000001", "2025-10-25", 360],
      ["wkr_000001", "2025-10-26", 480],
      ["wkr_000002", "2025-10-26", 240],
    ]);
    expect(noteText(rows[3])).toBe("Long day: 480 minutes at ven_0001 on 2025-10-26 (pay week 2025-10-20)");
  });
});
