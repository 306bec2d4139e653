import { defineDrives } from "../../schema/task.ts";
import task, { LOST_ANSWER, PAGE_500, REVOKED, ROLE } from "./task.ts";

/** How each scenario of task-0021 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  clean_delivery: async (h) => {
    await h.snapshot("before");
    await h.run("deliver", ["deliver"]);
    await h.snapshot("after");
  },
  lost_answer_then_rerun: async (h) => {
    // The second upload that commits answers 500; after 24 requests every token issued so
    // far is revoked; the second page of candidates fails once. Then the job runner loses
    // track of the run and starts it again, without its report files.
    await h.recreate(ROLE, 2, { faults: [LOST_ANSWER, REVOKED, PAGE_500] });
    await h.snapshot("before");
    await h.run("first_attempt", ["deliver"]);
    await h.snapshot("after_first");
    await h.clearOutputs();
    await h.run("rerun", ["deliver"]);
    await h.snapshot("after_rerun");
  },
});
