import { defineDrives } from "../../schema/task.ts";
import task, { RERANKED, ROLE, WORKERS_502 } from "./task.ts";

/** How each scenario of task-0050 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  two_nights: async (h) => {
    await h.recreate(ROLE, 0, { faults: [RERANKED] });
    await h.run("first", ["census"]);
    await h.snapshot("first");
    await h.recreate(ROLE, 2, { faults: [WORKERS_502] });
    await h.run("night", ["census"]);
    await h.snapshot("night");
  },
});
