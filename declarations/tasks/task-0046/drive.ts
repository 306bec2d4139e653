import { defineDrives } from "../../schema/task.ts";
import task, { FAULTS } from "./task.ts";

const ROLE = "interviewly";

/** How each scenario of task-0046 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  desk_moves: async (h) => {
    // The third reschedule call is accepted, then answered 502; RS-2204's move is accepted, then turned down
    // (interview.reschedule_failed); two answers break off mid-body (RS-2205's accepted move, a later read); some events come twice, two forged.
    await h.recreate(ROLE, 1, { faults: FAULTS });
    await h.snapshot("start");
    await h.listen(["serve"]);
    await h.run("push", ["push"], { timeoutMs: 90_000 });
    await h.snapshot("after_push");
    await h.run("rerun", ["push"], { timeoutMs: 90_000 });
    await h.snapshot("after_rerun");
    await h.settleWebhooks();
    await h.stopListener();
  },
});
