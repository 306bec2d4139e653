import { defineDrives } from "../../schema/task.ts";
import task, { NIGHT_FAULTS } from "./task.ts";

/** How each scenario of task-0049 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  fall_back_night: async (h) => {
    await h.recreate("rota", 1, { faults: NIGHT_FAULTS });
    await h.run("ledger", ["ledger"]);
    await h.snapshot("end");
  },
});
