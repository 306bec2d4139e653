import { describe, expect, it } from "vitest";
import type { Vendor } from "../../../declarations/schema/vendor.ts";
import placemint from "../../../declarations/vendors/placemint.ts";
import { buildState, type StateRecord } from "./generate.ts";

/** PlaceMint with one checkpoint after its own: the follow-ups under test and nothing else. */
function withFollowUps(recorded: "same-instant" | "backdated", count: number): Vendor {
  const next = (placemint.timeline.at(-1)?.checkpoint ?? 0) + 1;
  return { ...placemint, timeline: [...placemint.timeline, { checkpoint: next, mutations: [{ op: "follow-up", entity: "fee_adjustment", count, ref: "placement_id", recorded }] }] };
}

const adjustments = (records: StateRecord[]) => records.filter((r) => r.entity === "fee_adjustment");
const recordedAt = (r: StateRecord) => Number(r.data.created_at);

describe("the follow-up mutation (new records sharing a ref with the newest of it, recorded at the same instant or before)", () => {
  it.each([1, 7, 101])("seed %i: same-instant follow-ups share the placement and the instant of the adjustment in force, with a higher id", (seed) => {
    const v = withFollowUps("same-instant", 3);
    const cp = v.timeline.at(-1)!.checkpoint;
    const before = adjustments(buildState(v, seed, cp - 1));
    const after = adjustments(buildState(v, seed, cp));
    expect(after.slice(0, before.length)).toEqual(before);
    const added = after.slice(before.length);
    expect(added).toHaveLength(3);
    for (const f of added) {
      const followed = before.filter((b) => b.data.placement_id === f.data.placement_id);
      expect(followed.length).toBeGreaterThan(0);
      const newest = Math.max(...followed.map(recordedAt));
      expect(recordedAt(f)).toBe(newest);
      expect(followed.every((b) => b.id < f.id && b.seq < f.seq)).toBe(true);
    }
  });

  it.each([1, 7, 101])("seed %i: back-dated follow-ups are listed after the adjustment in force yet recorded before it", (seed) => {
    const v = withFollowUps("backdated", 3);
    const cp = v.timeline.at(-1)!.checkpoint;
    const before = adjustments(buildState(v, seed, cp - 1));
    const added = adjustments(buildState(v, seed, cp)).slice(before.length);
    expect(added).toHaveLength(3);
    expect(new Set(added.map((f) => f.data.placement_id)).size).toBe(3);
    for (const f of added) {
      const followed = before.filter((b) => b.data.placement_id === f.data.placement_id);
      expect(recordedAt(f)).toBeLessThan(Math.max(...followed.map(recordedAt)));
      expect(f.updatedMs).toBe(recordedAt(f));
      expect(f.seq).toBeGreaterThan(Math.max(...followed.map((b) => b.seq)));
    }
  });

  it("is a pure function of the seed", () => {
    const v = withFollowUps("backdated", 2);
    const cp = v.timeline.at(-1)!.checkpoint;
    expect(buildState(v, 42, cp)).toEqual(buildState(v, 42, cp));
  });
});
