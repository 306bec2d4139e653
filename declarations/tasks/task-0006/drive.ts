import { defineDrives } from "../../schema/task.ts";
import task, { BURST_429, PAGE_18_DOWN, PAGE_7_500, ROLE } from "./task.ts";

/** How each scenario of task-0006 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  backfill_through_faults: async (h) => {
    await h.recreate(ROLE, 0, { faults: [PAGE_7_500, BURST_429] });
    await h.run("backfill", ["backfill"]);
    await h.snapshot("after_backfill");
  },
  outage_resume_then_catch_up: async (h) => {
    await h.recreate(ROLE, 0, { faults: [PAGE_18_DOWN] });
    await h.run("backfill_outage", ["backfill"], { timeoutMs: 25_000 });
    await h.recreate(ROLE, 0);
    await h.run("backfill_rerun", ["backfill"]);
    await h.snapshot("cp0");
    await h.recreate(ROLE, 1);
    await h.snapshot("cp1");
    await h.run("incremental", ["incremental"]);
  },
});
