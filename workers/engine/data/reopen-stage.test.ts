import { describe, expect, it } from "vitest";
import type { Vendor } from "../../../declarations/schema/vendor.ts";
import placemint from "../../../declarations/vendors/placemint.ts";
import { checkpointTime } from "./clock.ts";
import { buildState, type StateRecord } from "./generate.ts";

/** PlaceMint with two checkpoints after its own: recent endings reopened, then the reopened ones advanced again. */
function withExtensions(count: number): Vendor {
  const last = placemint.timeline.at(-1)?.checkpoint ?? 0;
  return {
    ...placemint,
    timeline: [
      ...placemint.timeline,
      { checkpoint: last + 1, mutations: [{ op: "reopen-stage", entity: "placement", count, since: 3 }] },
      { checkpoint: last + 2, mutations: [{ op: "advance-stage", entity: "placement", count, since: last + 1 }] },
    ],
  };
}

const statuses = (records: StateRecord[]) => new Map(records.filter((r) => r.entity === "placement" && r.deletedMs === null).map((r) => [r.id, String(r.data.status)]));

describe("the reopen-stage mutation (records at the last stage moved back one step) and advance-stage since a checkpoint", () => {
  it.each([1, 7, 101])("seed %i: only placements that ended lately are reopened, to the stage before the last, and only those end again", (seed) => {
    const v = withExtensions(3);
    const cp = v.timeline.at(-1)!.checkpoint;
    const base = buildState(v, seed, cp - 2);
    const before = statuses(base);
    const reopenedState = buildState(v, seed, cp - 1);
    const reopened = statuses(reopenedState);
    const changed = [...reopened].filter(([id, s]) => before.get(id) !== s);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThanOrEqual(3);
    const lately = checkpointTime(v.clock, 2);
    for (const [id, s] of changed) {
      expect(before.get(id)).toBe("ended");
      expect(s).toBe("active");
      expect(base.find((r) => r.id === id)!.updatedMs).toBeGreaterThan(lately);
      // Reopening is a change: it moves updated_at on.
      expect(Number(reopenedState.find((r) => r.id === id)!.data.updated_at)).toBeGreaterThan(checkpointTime(v.clock, cp - 2));
    }
    const after = statuses(buildState(v, seed, cp));
    const ended = [...after].filter(([id, s]) => reopened.get(id) !== s);
    expect(ended.map(([id]) => id).sort()).toEqual(changed.map(([id]) => id).sort());
    for (const [, s] of ended) expect(s).toBe("ended");
  });

  it("leaves every checkpoint before it as it was (appending extensions changes no earlier world)", () => {
    const v = withExtensions(3);
    const last = placemint.timeline.at(-1)!.checkpoint;
    for (const cp of [2, 3, last]) expect(buildState(v, 11, cp)).toEqual(buildState(placemint, 11, cp));
  });

  it("without since, reopens any ended record", () => {
    const last = placemint.timeline.at(-1)!.checkpoint;
    const v: Vendor = { ...placemint, timeline: [...placemint.timeline, { checkpoint: last + 1, mutations: [{ op: "reopen-stage", entity: "placement", count: 5 }] }] };
    const before = statuses(buildState(v, 1, last));
    const after = statuses(buildState(v, 1, last + 1));
    const changed = [...after].filter(([id, s]) => before.get(id) !== s);
    expect(changed).toHaveLength(5);
    for (const [id, s] of changed) expect([before.get(id), s]).toEqual(["ended", "active"]);
  });
});
