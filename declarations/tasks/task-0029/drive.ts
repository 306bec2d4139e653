import { defineDrives } from "../../schema/task.ts";
import task, { NIGHTS, ROLE, SECOND_NIGHT_FAULTS } from "./task.ts";

/** How each scenario of task-0029 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  two_nights: async (h) => {
    const [first, second] = NIGHTS;
    await h.recreate(ROLE, first.checkpoint);
    await h.run(first.label, ["rollup"]);
    await h.snapshot(first.label);
    await h.clearOutputs();
    await h.recreate(ROLE, second.checkpoint, { faults: SECOND_NIGHT_FAULTS });
    await h.run(second.label, ["rollup"]);
    await h.snapshot(second.label);
  },
});
