import { defineDrives } from "../../schema/task.ts";
import task, { SWEEP_FAULTS } from "./task.ts";

/** How each scenario of task-0023 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  quiet_placement_sweep: async (h) => {
    await h.recreate("book", 2, { faults: SWEEP_FAULTS });
    await h.snapshot("before");
    await h.run("sweep", ["sweep"]);
    await h.snapshot("after");
    await h.run("rerun", ["sweep"]);
    await h.snapshot("rerun");
  },
});
