import { defineDrives } from "../../schema/task.ts";
import task, { FAULT } from "./task.ts";

/** How each scenario of task-0003 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  correct_under_rate_limit: async (h) => {
    await h.snapshot("before");
    await h.run("correct", ["correct"]);
    await h.snapshot("after");
  },
  stage_500_after_commit: async (h) => {
    await h.recreate("ats", 0, { faults: [FAULT] });
    await h.snapshot("before");
    await h.run("correct", ["correct"]);
    await h.snapshot("after");
  },
});
