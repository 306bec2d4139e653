import { defineDrives } from "../../schema/task.ts";
import task, { BURST_429, CACHED_READS, DRIFT, LOST_ANSWER, PAGE_503, ROLE } from "./task.ts";

/** How each scenario of task-0047 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  nightly_copy: async (h) => {
    // The first night: a page of assignments fails twice, a burst is throttled, and assignments move while the list is paged.
    await h.recreate(ROLE, 1, { faults: [PAGE_503, BURST_429, DRIFT] });
    await h.run("first_sync", ["sync"]);
    await h.snapshot("cp1");
    // Two weeks later: employees and assignments created, changed and deleted.
    await h.recreate(ROLE, 3);
    await h.run("next_sync", ["sync"]);
    await h.snapshot("cp3");
  },
  rate_changes: async (h) => {
    // An answer lost after PayGrade applied the change, and reads answered from the bureau's cache.
    await h.recreate(ROLE, 1, { faults: [LOST_ANSWER, CACHED_READS] });
    await h.snapshot("before");
    await h.run("apply", ["apply-rates"]);
    await h.snapshot("after_apply");
    // Payroll Ops asks whether it worked: the same file, again.
    await h.run("rerun", ["apply-rates"]);
    await h.snapshot("after_rerun");
  },
});
