import { defineDrives } from "../../schema/task.ts";
import task, { MERGED_TENANT_FAULTS } from "./task.ts";

/** How each scenario of task-0035 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  merged_tenant_extract: async (h) => {
    await h.recreate("book", task.roles.book.checkpoint, { faults: MERGED_TENANT_FAULTS });
    await h.run("extract", ["extract"]);
    await h.snapshot("end");
  },
});
