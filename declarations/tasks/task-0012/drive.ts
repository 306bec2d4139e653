import { defineDrives } from "../../schema/task.ts";
import task, { GAP_FAULTS, SWITCH_FAULTS, usable } from "./task.ts";

/** How each scenario of task-0012 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  cutover: async (h) => {
    // The poll as it runs today: the baseline, then the last nightly run (no listener, no events).
    const baseline = await h.run("poll_baseline", ["sync"]);
    if (!usable(baseline)) return;
    await h.recreate("ats", 1);
    const last = await h.run("poll_last", ["sync"]);
    await h.snapshot("cp1");
    if (!usable(last)) return;
    // Changes after the last poll and before the listener is up: TalentForge announces none of them.
    await h.recreate("ats", 2, { faults: GAP_FAULTS });
    await h.snapshot("cp2");
    await h.listen(["serve"]);
    const cut = await h.run("cutover", ["cutover"]);
    const again = await h.run("cutover_again", ["cutover"]);
    if (!usable(cut) && !usable(again)) return;
    // The first events after the switch.
    await h.recreate("ats", 3, { faults: SWITCH_FAULTS });
    await h.settleWebhooks();
    await h.snapshot("cp3");
    await h.stopListener();
    await h.run("reconcile", ["reconcile"]);
    await h.run("reconcile_again", ["reconcile"]);
  },
});
