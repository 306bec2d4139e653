import { defineDrives } from "../../schema/task.ts";
import task, { ASSIGNMENTS_502, BURST_429, RERUN_CHECKPOINT, ROLE, WORKERS_500, WORKERS_DOWN, WORKERS_DRIFT } from "./task.ts";

/** How each scenario of task-0040 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  backfill_through_faults: async (h) => {
    await h.recreate(ROLE, 0, { faults: [WORKERS_DRIFT, WORKERS_500, BURST_429, ASSIGNMENTS_502] });
    await h.run("backfill", ["backfill"]);
    await h.snapshot("after_backfill");
  },
  outage_then_resume_later: async (h) => {
    await h.recreate(ROLE, 0, { faults: [WORKERS_DOWN] });
    await h.snapshot("start");
    await h.run("backfill_outage", ["backfill"], { timeoutMs: 30_000 });
    await h.recreate(ROLE, RERUN_CHECKPOINT);
    await h.run("backfill_rerun", ["backfill"]);
    await h.snapshot("end");
  },
});
