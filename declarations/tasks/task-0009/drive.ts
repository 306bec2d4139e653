import { defineDrives } from "../../schema/task.ts";
import task, { LOST_ANSWER, MAINTENANCE, ROLE, WINDOW_429 } from "./task.ts";

/** How each scenario of task-0009 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  nightly_mirror: async (h) => {
    await h.run("sync", ["sync"]);
    await h.snapshot("after");
  },
  import_then_rerun: async (h) => {
    // The import night as it happened: the second list call for candidates opens a
    // rate-limit window, the fourth note StaffLine stores answers 500 although it was
    // stored, and the scheduler then runs the import again without the first result file.
    await h.recreate(ROLE, 1, { faults: [WINDOW_429, LOST_ANSWER] });
    await h.snapshot("before");
    await h.run("sync", ["sync"]);
    await h.run("import", ["import-notes"]);
    await h.snapshot("after_import");
    await h.clearOutputs();
    await h.run("rerun", ["import-notes"]);
    await h.snapshot("after_rerun");
  },
  maintenance_then_resume: async (h) => {
    // StaffLine goes down for maintenance in the middle of the import and asks to be
    // called back in ten minutes; the scheduler's next run picks up from there.
    await h.recreate(ROLE, 1, { faults: [MAINTENANCE] });
    await h.snapshot("before");
    await h.run("stopped", ["import-notes"]);
    await h.snapshot("after_stop");
    await h.run("resume", ["import-notes"]);
    await h.snapshot("after_resume");
  },
});
