import { describe, expect, it } from "vitest";
import type { Vendor } from "../../../declarations/schema/vendor.ts";
import placemint from "../../../declarations/vendors/placemint.ts";
import { checkpointTime } from "./clock.ts";
import { buildState, type StateRecord } from "./generate.ts";

/** PlaceMint with two checkpoints after its own: placements deleted, then some of them put back. */
function withRestore(deleted: number, restored: number): Vendor {
  const last = placemint.timeline.at(-1)?.checkpoint ?? 0;
  return {
    ...placemint,
    timeline: [
      ...placemint.timeline,
      { checkpoint: last + 1, mutations: [{ op: "delete", entity: "placement", count: deleted }] },
      { checkpoint: last + 2, mutations: [{ op: "restore", entity: "placement", count: restored }] },
    ],
  };
}

const key = (r: StateRecord) => `${r.entity}:${r.id}`;

describe("the restore mutation (a deletion made by mistake and undone)", () => {
  it.each([1, 7, 101])("seed %i: puts back records deleted before the interval, live again with their data, changed when put back", (seed) => {
    const v = withRestore(4, 2);
    const cp = v.timeline.at(-1)!.checkpoint;
    const before = buildState(v, seed, cp - 1);
    const after = buildState(v, seed, cp);
    const wasDeleted = new Map(before.filter((r) => r.deletedMs !== null).map((r) => [key(r), r]));
    const restored = after.filter((r) => r.deletedMs === null && wasDeleted.has(key(r)));
    expect(restored).toHaveLength(2);
    const from = (checkpointTime(v.clock, cp - 1) + checkpointTime(v.clock, cp)) / 2;
    for (const r of restored) {
      const old = wasDeleted.get(key(r))!;
      expect(r.entity).toBe("placement");
      expect(old.deletedMs!).toBeLessThan(checkpointTime(v.clock, cp - 1));
      expect(r.updatedMs).toBeGreaterThan(from);
      expect(r.updatedMs).toBeGreaterThan(old.deletedMs!);
      // The same record: only its change stamp moved.
      const { data: a, ...ra } = r;
      const { data: b, ...rb } = old;
      expect({ ...ra, updatedMs: 0, deletedMs: 0 }).toEqual({ ...rb, updatedMs: 0, deletedMs: 0 });
      const stamp = Object.keys(a).filter((k) => a[k] !== b[k]);
      expect(stamp.every((k) => a[k] === r.updatedMs)).toBe(true);
    }
    // Nothing else changes.
    const rest = after.filter((r) => !restored.includes(r));
    expect(rest).toEqual(before.filter((r) => !restored.some((d) => key(d) === key(r))));
  });

  it("puts back no more records than were deleted before the interval", () => {
    const v = withRestore(1, 5);
    const cp = v.timeline.at(-1)!.checkpoint;
    const deletedBefore = buildState(v, 3, cp - 1).filter((r) => r.deletedMs !== null).length;
    expect(buildState(v, 3, cp).filter((r) => r.deletedMs !== null)).toHaveLength(Math.max(0, deletedBefore - 5));
  });
});
