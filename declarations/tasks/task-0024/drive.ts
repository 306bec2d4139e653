import { defineDrives } from "../../schema/task.ts";
import task, { ATS_FAULTS, BOOK_FAULTS } from "./task.ts";

/** How each scenario of task-0024 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  roster_reconcile: async (h) => {
    await h.recreate("ats", 1, { faults: ATS_FAULTS });
    await h.recreate("book", 1, { faults: BOOK_FAULTS });
    await h.snapshot("before");
    await h.run("reconcile", ["reconcile"]);
    await h.snapshot("after");
    await h.run("rerun", ["reconcile"]);
    await h.snapshot("rerun");
  },
});
