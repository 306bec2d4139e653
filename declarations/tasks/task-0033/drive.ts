import { defineDrives } from "../../schema/task.ts";
import task, { BOOK_FAULTS } from "./task.ts";

/** How each scenario of task-0033 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  two_way_note_sync: async (h) => {
    await h.recreate("crm", task.roles.crm.checkpoint);
    await h.recreate("book", task.roles.book.checkpoint, { faults: BOOK_FAULTS });
    await h.snapshot("before");
    await h.run("sync", ["sync"]);
    await h.snapshot("after");
    await h.run("rerun", ["sync"]);
    await h.snapshot("rerun");
  },
});
