import { defineDrives } from "../../schema/task.ts";
import task, { MORNING_FAULTS } from "./task.ts";

/** How each scenario of task-0053 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  morning_book: async (h) => {
    await h.recreate("book", 1, { faults: MORNING_FAULTS });
    await h.run("book", ["book"]);
    await h.snapshot("end");
  },
});
