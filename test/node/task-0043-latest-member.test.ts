import { describe, expect, it } from "vitest";
import task, { DEV, MORNING } from "../../declarations/tasks/task-0043/task.ts";
import sourcewell from "../../declarations/vendors/sourcewell.ts";
import { checkpointTime } from "../../workers/engine/data/clock.ts";
import { buildState, type StateRecord } from "../../workers/engine/data/generate.ts";
import { otherSeedsOf } from "../../scripts/cli/commands/validate.ts";

// task-0043's ticket: "`last_added_at` is when the most recent of those people was added to the
// pool", those people being the pool's members whose profile has not been deleted. A connector that
// takes the newest membership whoever it names loses only where a pool's newest membership names a
// deleted profile, so every grading world (the task's seed and the five other seeds validate grades
// gold on) must hold such a pool at the morning the task is graded at. Likewise for memberships that
// have ended (`ra` set, still listed): "everyone who is in the pool now" leaves those people out,
// and every grading world must hold a pool that still lists such a person and one whose latest
// addition was taken out again. And for removals booked ahead (`ra` later than Sourcewell's clock):
// those people are still in the pool, so every grading world must hold a pool whose latest addition
// is booked to leave, and the development world (DEV, the morning before) none.

/** Live memberships and live profiles of the Sourcewell world of `seed` at `checkpoint`, by pool. */
function world(seed: number, checkpoint: number): { pools: StateRecord[][]; people: Set<string>; current: (m: StateRecord) => boolean } {
  const records = buildState(sourcewell, seed, checkpoint);
  const live = (entity: string): StateRecord[] => records.filter((r) => r.entity === entity && r.deletedMs === null);
  const members = live("member");
  const now = checkpointTime(sourcewell.clock, checkpoint);
  return {
    pools: live("pool").map((p) => members.filter((m) => m.data.pid === p.id)),
    people: new Set(live("talent").map((r) => r.id)),
    current: (m) => m.data.ra === null || Number(m.data.ra) > now,
  };
}

const newest = (ms: StateRecord[]) => ms.reduce((a, b) => (Number(b.data.ca) > Number(a.data.ca) ? b : a));
/** Pools whose newest current membership (not ended) names a deleted profile. */
function poolsWithErasedLatest(seed: number, checkpoint: number): number {
  const { pools, people, current } = world(seed, checkpoint);
  return pools.map((ms) => ms.filter(current)).filter((ms) => ms.length && !people.has(String(newest(ms).data.tid))).length;
}

/** Pools whose newest membership of a live profile has ended: the person was taken out again, and no later add brought them back. */
function poolsWithRemovedLatest(seed: number, checkpoint: number): number {
  const { pools, people, current } = world(seed, checkpoint);
  return pools.map((ms) => ms.filter((m) => people.has(String(m.data.tid)))).filter((ms) => ms.length && !current(newest(ms))).length;
}

/** Pools whose newest current membership of a live profile carries a removal booked ahead (still in the pool). */
function poolsWithBookedLatest(seed: number, checkpoint: number): number {
  const { pools, people, current } = world(seed, checkpoint);
  return pools.map((ms) => ms.filter((m) => current(m) && people.has(String(m.data.tid)))).filter((ms) => ms.length && newest(ms).data.ra !== null).length;
}

/** Pools that still list a live profile whose every membership there has ended. */
function poolsListingRemovedPeople(seed: number, checkpoint: number): number {
  const { pools, people, current } = world(seed, checkpoint);
  return pools.filter((ms) => {
    const listed = new Set(ms.filter((m) => people.has(String(m.data.tid))).map((m) => m.data.tid));
    const inPool = new Set(ms.filter((m) => current(m) && people.has(String(m.data.tid))).map((m) => m.data.tid));
    return listed.size > inPool.size;
  }).length;
}

describe("task-0043's grading worlds", () => {
  const seeds = [task.seed, ...otherSeedsOf(task.seed, 5)];

  it("grade the morning after the one the development world shows", () => {
    expect(task.roles.skills.checkpoint).toBe(DEV);
    expect(MORNING).toBe(DEV + 1);
  });

  it.each(seeds)("seed %i holds a pool whose most recently added person is booked to leave it later (still in it)", (seed) => {
    expect(poolsWithBookedLatest(seed, MORNING)).toBeGreaterThan(0);
  });

  it("the development world (seed 11 at DEV) has no removal booked ahead", () => {
    expect(poolsWithBookedLatest(11, DEV)).toBe(0);
    const now = checkpointTime(sourcewell.clock, DEV);
    expect(buildState(sourcewell, 11, DEV).some((r) => r.entity === "member" && r.data.ra !== null && Number(r.data.ra) > now)).toBe(false);
  });

  it.each(seeds)("seed %i holds a pool whose most recently added person has a deleted profile", (seed) => {
    expect(poolsWithErasedLatest(seed, MORNING)).toBeGreaterThan(0);
  });

  it.each(seeds)("seed %i holds a pool whose most recently added person has been taken out again", (seed) => {
    expect(poolsWithRemovedLatest(seed, MORNING)).toBeGreaterThan(0);
  });

  it.each(seeds)("seed %i holds a pool that still lists someone taken out of it", (seed) => {
    expect(poolsListingRemovedPeople(seed, MORNING)).toBeGreaterThan(0);
  });

  it("finds none where no profile has been deleted and no membership ended yet (the seeded world, checkpoint 0)", () => {
    expect(poolsWithErasedLatest(task.seed, 0)).toBe(0);
    expect(poolsWithRemovedLatest(task.seed, 0)).toBe(0);
    expect(poolsListingRemovedPeople(task.seed, 0)).toBe(0);
  });
});
