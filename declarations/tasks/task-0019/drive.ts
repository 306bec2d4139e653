import { defineDrives } from "../../schema/task.ts";
import task, { DAY1_FAULTS, DAY2_FAULTS } from "./task.ts";

/** How each scenario of task-0019 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  two_days_pushed_and_polled: async (h) => {
    await h.run("sync", ["sync"]);
    await h.snapshot("cp0");
    await h.listen(["serve"]);
    await h.recreate("ats", 1, { faults: DAY1_FAULTS });
    await h.settleWebhooks();
    await h.snapshot("cp1");
    await h.stopListener();
    await h.run("poll_day1", ["poll"]);
    await h.listen(["serve"]);
    await h.recreate("ats", 2, { faults: DAY2_FAULTS });
    await h.settleWebhooks();
    await h.snapshot("cp2");
    await h.stopListener();
    await h.run("poll_day2", ["poll"]);
  },
});
