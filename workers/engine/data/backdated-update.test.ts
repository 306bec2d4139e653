import { describe, expect, it } from "vitest";
import type { Vendor } from "../../../declarations/schema/vendor.ts";
import placemint from "../../../declarations/vendors/placemint.ts";
import { checkpointTime } from "./clock.ts";
import { buildState, type StateRecord } from "./generate.ts";

const FIELD = placemint.resources.find((r) => r.name === "placement")!.fields.find((f) => f.type === "integer")!.name;

/** PlaceMint with one checkpoint after its own: a change of placements keyed in late, and nothing else. */
function withBackdatedUpdates(recorded: "backdated" | undefined): Vendor {
  const next = (placemint.timeline.at(-1)?.checkpoint ?? 0) + 1;
  return { ...placemint, timeline: [...placemint.timeline, { checkpoint: next, mutations: [{ op: "update", entity: "placement", count: 3, fields: [FIELD], recorded }] }] };
}

const key = (r: StateRecord) => `${r.entity}:${r.id}`;

describe("the back-dated update mutation (a change keyed in late, dated when it took effect)", () => {
  it.each([1, 7, 101])("seed %i: dates each change before every change of the interval before, and after the record's last change", (seed) => {
    const v = withBackdatedUpdates("backdated");
    const cp = v.timeline.at(-1)!.checkpoint;
    const before = new Map(buildState(v, seed, cp - 1).map((r) => [key(r), structuredClone(r)]));
    const after = buildState(v, seed, cp);
    const changed = after.filter((r) => r.updatedMs !== before.get(key(r))!.updatedMs);
    expect(changed).toHaveLength(3);
    const previousChangesFrom = (checkpointTime(v.clock, cp - 2) + checkpointTime(v.clock, cp - 1)) / 2;
    for (const c of changed) {
      expect(c.entity).toBe("placement");
      expect(c.deletedMs).toBeNull();
      expect(c.updatedMs).toBeLessThan(previousChangesFrom);
      expect(c.updatedMs).toBeGreaterThan(before.get(key(c))!.updatedMs);
    }
    // Nothing else changes.
    expect(after.filter((r) => !changed.includes(r))).toEqual([...before.values()].filter((r) => !changed.some((c) => key(c) === key(r))));
  });

  it("leaves a plain update as it was (dated in the second half of its own interval)", () => {
    const v = withBackdatedUpdates(undefined);
    const cp = v.timeline.at(-1)!.checkpoint;
    const before = new Map(buildState(v, 1, cp - 1).map((r) => [key(r), r.updatedMs]));
    const from = (checkpointTime(v.clock, cp - 1) + checkpointTime(v.clock, cp)) / 2;
    const changed = buildState(v, 1, cp).filter((r) => r.updatedMs !== before.get(key(r)));
    expect(changed).toHaveLength(3);
    for (const c of changed) expect(c.updatedMs).toBeGreaterThan(from);
  });
});
