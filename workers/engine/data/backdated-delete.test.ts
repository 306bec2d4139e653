import { describe, expect, it } from "vitest";
import type { Vendor } from "../../../declarations/schema/vendor.ts";
import placemint from "../../../declarations/vendors/placemint.ts";
import { checkpointTime } from "./clock.ts";
import { buildState, type StateRecord } from "./generate.ts";

/** PlaceMint with one checkpoint after its own: back-dated deletions of placements and nothing else. */
function withBackdatedDeletes(count: number): Vendor {
  const next = (placemint.timeline.at(-1)?.checkpoint ?? 0) + 1;
  return { ...placemint, timeline: [...placemint.timeline, { checkpoint: next, mutations: [{ op: "delete", entity: "placement", count, recorded: "backdated" }] }] };
}

const key = (r: StateRecord) => `${r.entity}:${r.id}`;

describe("the back-dated delete mutation (a deletion keyed in late, dated when it took effect)", () => {
  it.each([1, 7, 101])("seed %i: dates each deletion before every change of the interval before, and after the deleted record's last change", (seed) => {
    const v = withBackdatedDeletes(3);
    const cp = v.timeline.at(-1)!.checkpoint;
    const before = buildState(v, seed, cp - 1);
    const after = buildState(v, seed, cp);
    const live = new Map(before.filter((r) => r.deletedMs === null).map((r) => [key(r), r]));
    const deleted = after.filter((r) => r.deletedMs !== null && live.has(key(r)));
    expect(deleted).toHaveLength(3);
    // Changes of the interval before land in its second half.
    const previousChangesFrom = (checkpointTime(v.clock, cp - 2) + checkpointTime(v.clock, cp - 1)) / 2;
    for (const d of deleted) {
      expect(d.entity).toBe("placement");
      expect(d.deletedMs!).toBeLessThan(previousChangesFrom);
      expect(d.deletedMs!).toBeGreaterThan(live.get(key(d))!.updatedMs);
      expect(d.updatedMs).toBe(d.deletedMs);
    }
    // Nothing else changes.
    const rest = after.filter((r) => !deleted.includes(r));
    expect(rest).toEqual(before.filter((r) => !deleted.some((d) => key(d) === key(r))));
  });

  it("leaves a plain delete as it was (dated in the second half of its own interval)", () => {
    const v: Vendor = {
      ...placemint,
      timeline: [...placemint.timeline, { checkpoint: (placemint.timeline.at(-1)?.checkpoint ?? 0) + 1, mutations: [{ op: "delete", entity: "placement", count: 2 }] }],
    };
    const cp = v.timeline.at(-1)!.checkpoint;
    const live = new Set(
      buildState(v, 1, cp - 1)
        .filter((r) => r.deletedMs === null)
        .map(key),
    );
    const from = (checkpointTime(v.clock, cp - 1) + checkpointTime(v.clock, cp)) / 2;
    const deleted = buildState(v, 1, cp).filter((r) => r.deletedMs !== null && live.has(key(r)));
    expect(deleted).toHaveLength(2);
    for (const d of deleted) expect(d.deletedMs!).toBeGreaterThan(from);
  });
});
