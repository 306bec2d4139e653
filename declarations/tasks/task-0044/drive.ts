import { defineDrives } from "../../schema/task.ts";
import task, { CHECKPOINT, FAULTS, ROLE } from "./task.ts";

/** How each scenario of task-0044 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  topup_then_rerun: async (h) => {
    await h.recreate(ROLE, CHECKPOINT, { faults: FAULTS });
    await h.snapshot("start");
    await h.run("topup", ["topup"]);
    await h.snapshot("after_first");
    await h.run("topup_again", ["topup"]);
    await h.snapshot("end");
  },
});
