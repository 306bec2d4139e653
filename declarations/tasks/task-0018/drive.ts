import { defineDrives } from "../../schema/task.ts";
import task, { LIVE_FAULTS } from "./task.ts";

/** How each scenario of task-0018 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  erasure_audit_after_outage: async (h) => {
    await h.run("backfill", ["backfill"]);
    await h.snapshot("cp1");
    await h.recreate("ats", 3);
    await h.snapshot("cp3");
    await h.run("erasures", ["erasures"]);
    await h.run("reconcile", ["reconcile"]);
  },
  live_deletes_and_missed_one: async (h) => {
    // The day before the task's checkpoint: the day that follows has a record created and deleted within it.
    await h.recreate("ats", 0);
    await h.run("backfill", ["backfill"]);
    await h.snapshot("cp0");
    await h.listen(["serve"]);
    await h.recreate("ats", 1, { faults: LIVE_FAULTS });
    await h.settleWebhooks();
    await h.snapshot("cp1");
    await h.stopListener();
    await h.run("reconcile", ["reconcile"]);
  },
});
