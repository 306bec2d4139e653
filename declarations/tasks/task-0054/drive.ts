import { defineDrives } from "../../schema/task.ts";
import task, { FANOUT_RESET, NIGHT, ROLE, SHARED_BURST, SHARED_QUOTA, WORKERS_DRIFT } from "./task.ts";

/** How each scenario of task-0054 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  group_night: async (h) => {
    await h.recreate(ROLE, NIGHT, { faults: [SHARED_QUOTA, SHARED_BURST, WORKERS_DRIFT, FANOUT_RESET] });
    await h.run("night", ["mirror"]);
    await h.snapshot("night");
  },
});
