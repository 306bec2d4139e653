import { describe, expect, it } from "vitest";
import task, { ARCHIVE_NIGHTS } from "../../declarations/tasks/task-0051/task.ts";
import paygrade from "../../declarations/vendors/paygrade.ts";
import { buildState, type StateRecord } from "../../workers/engine/data/generate.ts";
import { otherSeedsOf } from "../../scripts/cli/commands/validate.ts";

// task-0051's ticket: "`last_known` is the record as the archive last read it from PayGrade before
// it was deleted". An archive that keeps the first copy it took of a record, and never the copies
// later runs read, loses only where a record changes, a run reads the change, and a later run
// finds it deleted. Every grading world (the task's seed and the five other seeds validate grades
// gold on) must hold such a record at the last night `archive` runs.

const key = (r: StateRecord) => `${r.entity}:${r.id}`;

/** Employees and assignments deleted before `final` whose record at `review` differs from the one at `first`. */
function changedThenDeleted(seed: number, nights: { first: number; review: number; final: number }): string[] {
  const at = (checkpoint: number) => new Map(buildState(paygrade, seed, checkpoint).map((r) => [key(r), r]));
  const [first, review] = [at(nights.first), at(nights.review)];
  return buildState(paygrade, seed, nights.final)
    .filter((r) => (r.entity === "employee" || r.entity === "assignment") && r.deletedMs !== null)
    .filter((r) => {
      const read = review.get(key(r));
      const before = first.get(key(r));
      return read?.deletedMs === null && before?.deletedMs === null && JSON.stringify(read.data) !== JSON.stringify(before.data);
    })
    .map(key);
}

describe("task-0051's grading worlds", () => {
  const seeds = [task.seed, ...otherSeedsOf(task.seed, 5)];

  it.each(seeds)("seed %i deletes, by the last night, a record that changed after the first night of archive and was read changed", (seed) => {
    expect(changedThenDeleted(seed, ARCHIVE_NIGHTS).length).toBeGreaterThan(0);
  });

  it("finds none in the nights the task ran before (Classic copy at 1, change read at 2, deletions by 3) for its own seed: the gap", () => {
    expect(changedThenDeleted(task.seed, { first: 1, review: 2, final: 3 })).toEqual([]);
  });
});
