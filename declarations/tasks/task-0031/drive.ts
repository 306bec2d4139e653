import { defineDrives } from "../../schema/task.ts";
import task, { CLOSE_FAULTS } from "./task.ts";

/** How each scenario of task-0031 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  quarter_close: async (h) => {
    await h.recreate("book", 1, { faults: CLOSE_FAULTS });
    await h.snapshot("before");
    await h.run("close", ["close"]);
    await h.snapshot("after");
    await h.run("rerun", ["close"]);
    await h.snapshot("rerun");
  },
});
