import { describe, expect, it } from "vitest";
import task, { ARCHIVE_NIGHTS } from "../../declarations/tasks/task-0051/task.ts";
import paygrade from "../../declarations/vendors/paygrade.ts";
import { buildState } from "../../workers/engine/data/generate.ts";
import { otherSeedsOf } from "../../scripts/cli/commands/validate.ts";

// task-0051's ticket: "our branches sometimes key a leaver or an ended placement into PayGrade a
// week or two late, and PayGrade dates such a deletion when it took effect". An archive that reads
// the deletions list only from the newest deletion it has seen (or an hour before it) never lists
// such a deletion. Every grading world must hold one on the night after `final`: a deletion first
// shown at `late`, dated more than a day before the newest deletion `final` showed, and after the
// last change of the record it deletes.

const HOUR_MS = 3_600_000;

function lateDeletions(seed: number): { id: string; deletedMs: number; lastChangeMs: number }[] {
  const before = buildState(paygrade, seed, ARCHIVE_NIGHTS.final);
  const newestBefore = Math.max(...before.filter((r) => r.deletedMs !== null).map((r) => r.deletedMs as number));
  const live = new Map(before.filter((r) => r.deletedMs === null).map((r) => [`${r.entity}:${r.id}`, r]));
  return buildState(paygrade, seed, ARCHIVE_NIGHTS.late)
    .filter((r) => r.deletedMs !== null && live.has(`${r.entity}:${r.id}`) && (r.deletedMs as number) < newestBefore - 24 * HOUR_MS)
    .map((r) => ({ id: r.id, deletedMs: r.deletedMs as number, lastChangeMs: live.get(`${r.entity}:${r.id}`)!.updatedMs }));
}

describe("task-0051's grading worlds", () => {
  const seeds = [task.seed, ...otherSeedsOf(task.seed, 5)];

  it.each(seeds)("seed %i: the last night lists assignments deleted before the newest deletion of the night before, after their last change", (seed) => {
    const late = lateDeletions(seed);
    expect(late.length).toBe(2);
    for (const d of late) expect(d.deletedMs).toBeGreaterThan(d.lastChangeMs);
  });

  it("deletes two assignments, and nothing else, of the records live the night before", () => {
    const final = buildState(paygrade, task.seed, ARCHIVE_NIGHTS.final);
    const late = new Map(buildState(paygrade, task.seed, ARCHIVE_NIGHTS.late).map((r) => [`${r.entity}:${r.id}`, r]));
    const deletedOnlyLate = final.filter((r) => r.deletedMs === null && late.get(`${r.entity}:${r.id}`)?.deletedMs !== null);
    expect(deletedOnlyLate.map((r) => r.entity)).toEqual(["assignment", "assignment"]);
  });
});
