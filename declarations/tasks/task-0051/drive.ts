import { defineDrives } from "../../schema/task.ts";
import task, { ARCHIVE_NIGHTS, BURST_429, BUSY_NIGHT_RESET, ROLE, UPLIFT_DRIFT } from "./task.ts";

/** How the scenario of task-0051 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  cutover_to_the_deletions_list: async (h) => {
    // Two nights of the Classic job: the first keeps a roster, the second finds what went.
    await h.recreate(ROLE, 0);
    await h.run("classic_first_night", ["archive-classic"]);
    await h.snapshot("cp0");
    await h.recreate(ROLE, 1);
    await h.run("classic_last_night", ["archive-classic"]);
    await h.snapshot("cp1");
    // A week later `archive` takes over, through a throttled burst.
    await h.recreate(ROLE, ARCHIVE_NIGHTS.first, { faults: [BURST_429] });
    await h.run("first_archive", ["archive"]);
    await h.snapshot("cp2");
    // Two weeks after that, the night after the yearly rate review, which changed every assignment.
    await h.recreate(ROLE, ARCHIVE_NIGHTS.review);
    await h.run("next_archive", ["archive"]);
    await h.snapshot("cp4");
    // A week later, one more night: some of the assignments the review changed are deleted.
    await h.recreate(ROLE, ARCHIVE_NIGHTS.final);
    await h.run("final_archive", ["archive"]);
    await h.snapshot("cp5");
    // A week later: branches key in two assignments' ends late, dated when the placements ended.
    await h.recreate(ROLE, ARCHIVE_NIGHTS.late);
    await h.run("late_archive", ["archive"]);
    await h.snapshot("cp6");
    // A week later: PayGrade's helpdesk puts back an employee and an assignment deleted by mistake weeks before.
    await h.recreate(ROLE, ARCHIVE_NIGHTS.restored);
    await h.run("restored_archive", ["archive"]);
    await h.snapshot("cp7");
    // A week later: branches key in a pay award late, dated when it took effect.
    await h.recreate(ROLE, ARCHIVE_NIGHTS.award);
    await h.run("award_archive", ["archive"]);
    await h.snapshot("cp8");
    // A week after that: some of the assignments the award changed are deleted.
    await h.recreate(ROLE, ARCHIVE_NIGHTS.afterAward);
    await h.run("after_award_archive", ["archive"]);
    await h.snapshot("cp9");
    // A week later: a pay uplift changes every assignment, and payroll staff are still keying while the job reads the list.
    await h.recreate(ROLE, ARCHIVE_NIGHTS.uplift, { faults: UPLIFT_DRIFT });
    await h.run("uplift_archive", ["archive"]);
    await h.snapshot("cp10");
    // A week after that: a client's contract ends and forty placements the uplift changed are deleted, on a busy night for the bureau's network.
    await h.recreate(ROLE, ARCHIVE_NIGHTS.closing, { faults: [BUSY_NIGHT_RESET] });
    await h.run("closing_archive", ["archive"]);
    await h.snapshot("cp11");
  },
});
