import { defineDrives } from "../../schema/task.ts";
import task, { CAP_413, ROLE, STALE } from "./task.ts";

/** How each scenario of task-0016 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  repair_queue_then_rerun: async (h) => {
    // The night as it went in production: single placement reads come from GlobalHire's
    // edge cache, the batch endpoint refuses far fewer items than it documents, and the
    // on-call engineer runs the job a second time because the first report was lost.
    // RQ-044 rebooks a candidate whose only placement with that client is archived; RQ-045
    // carries a state the batch endpoint turns down in its 207.
    await h.recreate(ROLE, 3, { faults: [STALE, CAP_413] });
    await h.snapshot("before");
    await h.run("repair", ["repair"]);
    await h.snapshot("after_repair");
    await h.clearOutputs();
    await h.run("rerun", ["repair"]);
    await h.snapshot("after_rerun");
  },
});
