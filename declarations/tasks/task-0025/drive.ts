import { defineDrives } from "../../schema/task.ts";
import task, { ATS, ATS_FAULTS, HR, HR_FAULTS } from "./task.ts";

/** How each scenario of task-0025 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  go_live_day: async (h) => {
    await h.recreate(HR, 0, { faults: HR_FAULTS });
    await h.snapshot("before");
    await h.listen(["serve"]);
    await h.recreate(ATS, 1, { faults: ATS_FAULTS });
    await h.settleWebhooks();
    await h.snapshot("after_hooks");
    await h.stopListener();
    await h.run("reconcile", ["reconcile"]);
    await h.snapshot("after_reconcile");
    await h.clearOutputs();
    await h.run("rerun", ["reconcile"]);
    await h.snapshot("rerun");
  },
});
