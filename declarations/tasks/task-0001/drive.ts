import { defineDrives } from "../../schema/task.ts";
import task from "./task.ts";

/** How each scenario of task-0001 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  initial_sync: async (h) => {
    await h.run("backfill", ["backfill"]);
    await h.snapshot("after_backfill");
  },
  incremental_catch_up: async (h) => {
    await h.run("backfill", ["backfill"]);
    await h.snapshot("cp0");
    await h.recreate("ats", 1);
    await h.snapshot("cp1");
    await h.run("incremental", ["incremental"]);
  },
});
