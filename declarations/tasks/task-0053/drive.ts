import { defineDrives } from "../../schema/task.ts";
import task, { MORNING_FAULTS } from "./task.ts";

/** How each scenario of task-0053 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  morning_book: async (h) => {
    // The morning after finance's catch-up day: second adjustments saved at the same instant as the one they amend, and back-dated ones.
    await h.recreate("book", 5, { faults: MORNING_FAULTS });
    await h.run("book", ["book"]);
    await h.snapshot("end");
  },
});
