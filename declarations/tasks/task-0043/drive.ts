import { defineDrives } from "../../schema/task.ts";
import task, { ENDORSEMENTS_502, ENDORSEMENTS_DRIFT, ENDORSEMENTS_DRIFT_AGAIN, FANOUT_RESET, MORNING, ROLE } from "./task.ts";

/** How task-0043's scenario is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  morning_index: async (h) => {
    await h.recreate(ROLE, MORNING, { faults: [FANOUT_RESET, ENDORSEMENTS_502, ENDORSEMENTS_DRIFT, ENDORSEMENTS_DRIFT_AGAIN] });
    await h.snapshot("morning");
    await h.run("index", ["index"]);
  },
});
