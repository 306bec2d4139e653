import { defineDrives } from "../../schema/task.ts";
import task from "./task.ts";

/** How each scenario of task-0007 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  webhook_freshness: async (h) => {
    await h.run("backfill", ["backfill"]);
    await h.snapshot("cp0");
    await h.listen(["serve"]);
    await h.recreate("ats", 1, { faults: ["tl-duplicate-storm", "tl-reversed-burst"] });
    await h.settleWebhooks();
    await h.snapshot("cp1");
    await h.stopListener();
    await h.run("dump", ["dump"]);
  },
  tamper_and_dropped_delete: async (h) => {
    await h.run("backfill", ["backfill"]);
    await h.snapshot("cp0");
    await h.listen(["serve"]);
    await h.recreate("ats", 1, { faults: ["tl-forged-delivery", "tl-stale-delivery", "tl-drop-first-candidate-delete", "tl-reversed-burst", "tl-candidates-500-page-2"] });
    await h.settleWebhooks();
    await h.snapshot("cp1");
    await h.stopListener();
    await h.run("dump_webhooks", ["dump"]);
    await h.run("reconcile", ["reconcile"]);
    await h.run("dump_reconciled", ["dump"]);
  },
});
