import { describe, expect, it } from "vitest";
import task, { ARCHIVE_NIGHTS } from "../../declarations/tasks/task-0051/task.ts";
import paygrade from "../../declarations/vendors/paygrade.ts";
import { buildState } from "../../workers/engine/data/generate.ts";
import { otherSeedsOf } from "../../scripts/cli/commands/validate.ts";

// task-0051's ticket: "A `last_known` holds every change PayGrade had made to the record by the last
// run of `archive` that finished before the deletion." On the uplift's night every assignment has
// changed, so the night reads them all, while the list moves under the crawl (armed by the drive);
// the night after, forty of them are deleted. Every grading world must hold the case: each of the
// forty was last changed by the uplift (after the night before it), so its last_known carries it.

const key = (r: { entity: string; id: string }) => `${r.entity}:${r.id}`;

describe("task-0051's grading worlds: a pay uplift changes every assignment, then forty are deleted", () => {
  const seeds = [task.seed, ...otherSeedsOf(task.seed, 5)];

  it.each(seeds)("seed %i: the assignments deleted after the uplift were all changed by it", (seed) => {
    const before = new Map(buildState(paygrade, seed, ARCHIVE_NIGHTS.afterAward).map((r) => [key(r), r]));
    const uplift = new Map(buildState(paygrade, seed, ARCHIVE_NIGHTS.uplift).map((r) => [key(r), r]));
    const live = [...uplift.values()].filter((r) => r.entity === "assignment" && r.deletedMs === null);
    expect(live.length).toBeGreaterThan(200);
    for (const r of live) expect(r.updatedMs).toBeGreaterThan(before.get(key(r))!.updatedMs);
    const deleted = buildState(paygrade, seed, ARCHIVE_NIGHTS.closing).filter((r) => r.deletedMs !== null && uplift.get(key(r))?.deletedMs === null);
    expect(deleted.length).toBe(40);
    expect(deleted.every((r) => r.entity === "assignment")).toBe(true);
  });
});
