import { describe, expect, it } from "vitest";
import task, { MORNING } from "../../declarations/tasks/task-0043/task.ts";
import sourcewell from "../../declarations/vendors/sourcewell.ts";
import { buildState, type StateRecord } from "../../workers/engine/data/generate.ts";
import { otherSeedsOf } from "../../scripts/cli/commands/validate.ts";

// task-0043's ticket: "`last_added_at` is when the most recent of those people was added to the
// pool", those people being the pool's members whose profile has not been deleted. A connector that
// takes the newest membership whoever it names loses only where a pool's newest membership names a
// deleted profile, so every grading world (the task's seed and the five other seeds validate grades
// gold on) must hold such a pool at the morning the task is graded at.

/** Pools whose newest membership names a deleted profile, in the Sourcewell world of `seed` at `checkpoint`. */
function poolsWithErasedLatest(seed: number, checkpoint: number): string[] {
  const records = buildState(sourcewell, seed, checkpoint);
  const live = (entity: string): StateRecord[] => records.filter((r) => r.entity === entity && r.deletedMs === null);
  const people = new Set(live("talent").map((r) => r.id));
  const members = live("member");
  const out: string[] = [];
  for (const pool of live("pool")) {
    const mine = members.filter((m) => m.data.pid === pool.id);
    if (!mine.length) continue;
    const newest = mine.reduce((a, b) => (Number(b.data.ca) > Number(a.data.ca) ? b : a));
    if (!people.has(String(newest.data.tid))) out.push(pool.id);
  }
  return out;
}

describe("task-0043's grading worlds", () => {
  const seeds = [task.seed, ...otherSeedsOf(task.seed, 5)];

  it("grade at a morning where the roles start", () => {
    expect(task.roles.skills.checkpoint).toBe(MORNING);
  });

  it.each(seeds)("seed %i holds a pool whose most recently added person has a deleted profile", (seed) => {
    expect(poolsWithErasedLatest(seed, MORNING).length).toBeGreaterThan(0);
  });

  it("finds none where no profile has been deleted yet (the seeded world, checkpoint 0)", () => {
    expect(poolsWithErasedLatest(task.seed, 0)).toEqual([]);
  });
});
