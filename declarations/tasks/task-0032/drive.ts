import { defineDrives } from "../../schema/task.ts";
import task, { FRIDAY_FAULTS } from "./task.ts";

/** How each scenario of task-0032 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  friday_census: async (h) => {
    await h.recreate("book", 3, { faults: FRIDAY_FAULTS });
    await h.run("census", ["census"]);
    await h.snapshot("end");
  },
});
