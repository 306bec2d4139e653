import { defineDrives } from "../../schema/task.ts";
import task, { CAP_413, LOST_ANSWER, PHANTOM, ROLE } from "./task.ts";

/** How each scenario of task-0010 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  bulk_migration_then_rerun: async (h) => {
    // The migration night as it happened: StaffLine refuses batches far below the documented
    // fifty, one 207 reports a note that is never stored, the fourth batch it stores answers
    // 500, and Operations then runs the import again without the first report.
    await h.recreate(ROLE, 1, { faults: [CAP_413, PHANTOM, LOST_ANSWER] });
    await h.snapshot("before");
    await h.run("import", ["import"]);
    await h.snapshot("after_import");
    await h.clearOutputs();
    await h.run("rerun", ["import"]);
    await h.snapshot("after_rerun");
  },
});
