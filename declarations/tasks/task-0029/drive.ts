import { defineDrives } from "../../schema/task.ts";
import task, { NIGHTS, ROLE, TOKENS_REVOKED } from "./task.ts";

/** How each scenario of task-0029 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  two_nights: async (h) => {
    const [first, second] = NIGHTS;
    await h.recreate(ROLE, first.checkpoint);
    await h.run(first.label, ["rollup"]);
    await h.snapshot(first.label);
    await h.clearOutputs();
    await h.recreate(ROLE, second.checkpoint, { faults: [TOKENS_REVOKED] });
    await h.run(second.label, ["rollup"]);
    await h.snapshot(second.label);
  },
});
