import { describe, expect, it } from "vitest";
import task, { ARCHIVE_NIGHTS } from "../../declarations/tasks/task-0051/task.ts";
import paygrade from "../../declarations/vendors/paygrade.ts";
import { buildState } from "../../workers/engine/data/generate.ts";
import { otherSeedsOf } from "../../scripts/cli/commands/validate.ts";

// task-0051's ticket: "Our branches key pay changes late too, sometimes a week or two, and PayGrade
// dates them when they took effect". An archive that reads employees and assignments only from an
// hour before the newest change it has seen never reads such a change. Every grading world must
// hold the case: the assignments deleted on the night after `award` were last changed by the award,
// dated more than an hour before every assignment change the night before `award` read, so their
// last_known must carry the award.

const HOUR_MS = 3_600_000;
const key = (r: { entity: string; id: string }) => `${r.entity}:${r.id}`;

describe("task-0051's grading worlds: a pay award keyed in late, then some of its assignments deleted", () => {
  const seeds = [task.seed, ...otherSeedsOf(task.seed, 5)];

  it.each(seeds)("seed %i: the assignments deleted after the award were last changed by it, dated before the newest change of the night before", (seed) => {
    const before = buildState(paygrade, seed, ARCHIVE_NIGHTS.restored);
    const newestBefore = Math.max(...before.filter((r) => r.entity === "assignment" && r.deletedMs === null).map((r) => r.updatedMs));
    const award = new Map(buildState(paygrade, seed, ARCHIVE_NIGHTS.award).map((r) => [key(r), r]));
    const beforeMs = new Map(before.map((r) => [key(r), r.updatedMs]));
    const deleted = buildState(paygrade, seed, ARCHIVE_NIGHTS.afterAward).filter((r) => r.deletedMs !== null && award.get(key(r))?.deletedMs === null);
    expect(deleted.map((r) => r.entity)).toEqual(["assignment", "assignment", "assignment"]);
    for (const d of deleted) {
      const at = award.get(key(d))!.updatedMs;
      expect(at).toBeGreaterThan(beforeMs.get(key(d))!);
      expect(at).toBeLessThan(newestBefore - 2 * HOUR_MS);
    }
  });
});
