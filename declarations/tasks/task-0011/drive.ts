import { defineDrives } from "../../schema/task.ts";
import task, { GAP_FAULTS, STORM_FAULTS, usable } from "./task.ts";

/** How each scenario of task-0011 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  duplicate_storm: async (h) => {
    const first = await h.run("sync", ["sync"]);
    await h.snapshot("cp0");
    if (!usable(first)) return;
    await h.listen(["serve"]);
    // Checkpoint 1: every third event three times, the burst reversed; after four requests
    // every credential issued so far is revoked (TalentForge then answers 403), and after
    // twenty the quota closes for two seconds.
    await h.recreate("ats", 1, { faults: STORM_FAULTS });
    await h.settleWebhooks();
    await h.snapshot("cp1");
    // Checkpoint 2: another storm; the recreate has dropped every session the listener held.
    await h.recreate("ats", 2, { faults: ["tf-duplicate-storm"] });
    await h.settleWebhooks();
    await h.snapshot("cp2");
    await h.stopListener();
  },
  lost_event_reconcile: async (h) => {
    const first = await h.run("sync", ["sync"]);
    await h.snapshot("cp0");
    if (!usable(first)) return;
    await h.listen(["serve"]);
    await h.recreate("ats", 1, { faults: GAP_FAULTS });
    await h.settleWebhooks();
    await h.snapshot("cp1");
    await h.stopListener();
    await h.run("reconcile", ["sync"]);
    await h.run("rerun", ["sync"]);
  },
});
