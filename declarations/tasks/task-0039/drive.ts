import { defineDrives } from "../../schema/task.ts";
import task, { BACKFILL_FAULTS, NEXT_DAY_FAULTS, REORG_FAULTS } from "./task.ts";

const ROLE = "interviewly";

/** How each scenario of task-0039 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  reorg_afternoon: async (h) => {
    // Recruiters book interviews while the back-fill reads (the interviews list moves under its crawl); a scorecards page is cut off.
    await h.recreate(ROLE, 3, { faults: BACKFILL_FAULTS });
    await h.run("sync", ["sync"]);
    await h.snapshot("cp3");
    await h.listen(["serve"]);
    // The reorg afternoon: the burst reversed, every third event twice, two forgeries, a stale replay.
    await h.recreate(ROLE, 4, { faults: REORG_FAULTS });
    await h.settleWebhooks();
    await h.snapshot("cp4");
    // A deploy restarts the listener; the next afternoon arrives in Interviewly's own order.
    await h.stopListener();
    await h.listen(["serve"]);
    await h.recreate(ROLE, 5, { faults: NEXT_DAY_FAULTS });
    await h.settleWebhooks();
    await h.snapshot("cp5");
    await h.stopListener();
  },
});
