import { defineDrives } from "../../schema/task.ts";
import task, { INCIDENT_FAULTS, OUTAGE_FAULTS, ROLE } from "./task.ts";

/** How each scenario of task-0017 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  catch_up_after_outage: async (h) => {
    await h.recreate(ROLE, 1);
    await h.run("backfill", ["backfill"]);
    await h.snapshot("cp1");
    await h.recreate(ROLE, 3, { faults: OUTAGE_FAULTS });
    await h.snapshot("cp3");
    await h.run("poll", ["poll"]);
  },
  incident_day: async (h) => {
    await h.recreate(ROLE, 0);
    await h.run("backfill", ["backfill"]);
    await h.snapshot("cp0");
    await h.listen(["serve"]);
    await h.recreate(ROLE, 1, { faults: INCIDENT_FAULTS });
    await h.settleWebhooks();
    await h.snapshot("cp1");
    await h.stopListener();
    await h.run("push", ["push"]);
    await h.snapshot("pushed");
    await h.run("poll", ["poll"]);
    await h.run("push_rerun", ["push"]);
    await h.snapshot("rerun");
  },
});
