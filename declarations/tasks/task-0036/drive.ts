import { defineDrives } from "../../schema/task.ts";
import task, { CREATE_LOST, ROLE, SESSIONS_ENDED, SIGNER_LOST, SIGNER_REFUSED_AFTER_PACKET } from "./task.ts";

/** How each scenario of task-0036 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  intake_bad_night_then_rerun: async (h) => {
    await h.recreate(ROLE, 0, { faults: [CREATE_LOST, SIGNER_REFUSED_AFTER_PACKET, SIGNER_LOST, SESSIONS_ENDED] });
    await h.snapshot("before");
    await h.run("first", ["push"]);
    await h.snapshot("first");
    await h.clearOutputs();
    await h.run("second", ["push"]);
    await h.snapshot("second");
    await h.clearOutputs();
    await h.run("rerun", ["push"]);
    await h.snapshot("rerun");
  },
});
