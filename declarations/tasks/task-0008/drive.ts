import { defineDrives } from "../../schema/task.ts";
import task, { LOST_ANSWER, REVOKED } from "./task.ts";

/** How each scenario of task-0008 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  clean_apply: async (h) => {
    await h.snapshot("before");
    await h.run("apply", ["apply"]);
    await h.snapshot("after");
  },
  retry_storm: async (h) => {
    // The second committed create answers 500, and after four requests every token
    // issued so far is revoked (TalentForge then answers an off-spec 403).
    await h.recreate("ats", 0, { faults: [LOST_ANSWER, REVOKED] });
    await h.snapshot("before");
    await h.run("apply", ["apply"]);
    await h.snapshot("after");
  },
  crash_and_rerun: async (h) => {
    // An attempt that loses the answer to a committed create; the job runner then loses
    // track of it and starts the whole batch again, without the first result file.
    await h.recreate("ats", 0, { faults: [LOST_ANSWER] });
    await h.snapshot("before");
    await h.run("first_attempt", ["apply"]);
    await h.snapshot("after_first");
    await h.clearOutputs();
    await h.run("rerun", ["apply"]);
    await h.snapshot("after_rerun");
  },
});
