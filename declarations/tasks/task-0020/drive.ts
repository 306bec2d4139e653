import { defineDrives } from "../../schema/task.ts";
import task from "./task.ts";

/** How each scenario of task-0020 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  ack_pipeline_freshness: async (h) => {
    await h.run("backfill", ["backfill"]);
    await h.snapshot("start");
    await h.listen(["serve"]);
    await h.recreate("ats", 3, { faults: ["tl-duplicate-storm"] });
    await h.settleWebhooks();
    await h.recreate("ats", 4, { faults: ["tl-reversed-burst", "tl-forged-delivery", "tl-stale-delivery"] });
    await h.settleWebhooks();
    await h.snapshot("end");
    await h.stopListener();
    await h.settleWebhooks();
    await h.run("drain", ["drain"]);
    await h.run("dump", ["dump"]);
  },
  dlq_drain_recovery: async (h) => {
    // The endpoint is registered, then the host goes down for maintenance.
    await h.listen(["serve"]);
    await h.stopListener();
    await h.recreate("ats", 3);
    await h.run("backfill", ["backfill"]);
    await h.snapshot("start");
    await h.recreate("ats", 4);
    await h.settleWebhooks();
    await h.listen(["serve"]);
    await h.recreate("ats", 5, { faults: ["tl-duplicate-storm", "tl-reversed-burst"] });
    await h.settleWebhooks();
    await h.snapshot("end");
    await h.stopListener();
    await h.settleWebhooks();
    await h.run("drain", ["drain"]);
    await h.run("drain_again", ["drain"]);
    await h.run("dump", ["dump"]);
  },
});
