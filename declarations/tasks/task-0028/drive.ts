import { defineDrives } from "../../schema/task.ts";
import task, { CACHED_READS, CHECKPOINT, LOST_UPDATE_ANSWER, ROLE, TOKENS_REVOKED } from "./task.ts";

/** How each scenario of task-0028 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  drifted_decisions_then_rerun: async (h) => {
    await h.recreate(ROLE, CHECKPOINT, { faults: [CACHED_READS, TOKENS_REVOKED, LOST_UPDATE_ANSWER] });
    await h.snapshot("before");
    await h.run("first", ["repair"]);
    await h.snapshot("first");
    await h.clearOutputs();
    await h.run("rerun", ["repair"]);
    await h.snapshot("rerun");
  },
});
