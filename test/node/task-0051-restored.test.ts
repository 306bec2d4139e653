import { describe, expect, it } from "vitest";
import task, { ARCHIVE_NIGHTS } from "../../declarations/tasks/task-0051/task.ts";
import paygrade from "../../declarations/vendors/paygrade.ts";
import { buildState, type StateRecord } from "../../workers/engine/data/generate.ts";
import { otherSeedsOf } from "../../scripts/cli/commands/validate.ts";

// task-0051's ticket: "A record PayGrade has put back is not deleted any more: from the first run of
// `archive` after it is back, it has no row in `closures.json`." Every grading world must put back,
// on the night after `late`, an employee and an assignment the archive already holds (deleted by
// `late`), live again and changed after the `late` night (so a read of what changed lists them), and
// delete nothing new that night.

const key = (r: StateRecord) => `${r.entity}:${r.id}`;

function putBack(seed: number) {
  const late = new Map(buildState(paygrade, seed, ARCHIVE_NIGHTS.late).map((r) => [key(r), r]));
  const after = buildState(paygrade, seed, ARCHIVE_NIGHTS.restored);
  return { late, after, back: after.filter((r) => r.deletedMs === null && late.get(key(r))?.deletedMs != null) };
}

describe("task-0051's grading worlds: records put back", () => {
  const seeds = [task.seed, ...otherSeedsOf(task.seed, 5)];

  it.each(seeds)("seed %i: the night after `late` finds an employee and an assignment put back, each deleted before and changed since", (seed) => {
    const { late, after, back } = putBack(seed);
    expect(back.map((r) => r.entity).sort()).toEqual(["assignment", "employee"]);
    const lateNight = Math.max(...[...late.values()].map((r) => r.updatedMs));
    for (const r of back) expect(r.updatedMs).toBeGreaterThan(lateNight);
    // No new deletion that night.
    expect(after.filter((r) => r.deletedMs !== null && late.get(key(r))?.deletedMs === null)).toEqual([]);
  });
});
