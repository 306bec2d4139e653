import { defineDrives } from "../../schema/task.ts";
import task from "./task.ts";

/** How each scenario of task-0004 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  full_sync: async (h) => {
    await h.run("sync", ["sync"]);
    await h.snapshot("cp1");
  },
  catch_up: async (h) => {
    await h.run("sync", ["sync"]);
    await h.snapshot("cp1");
    await h.recreate("ats", 2);
    await h.snapshot("cp2");
    await h.run("sync_incremental", ["sync", "--incremental"]);
  },
});
