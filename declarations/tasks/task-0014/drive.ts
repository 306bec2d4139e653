import { defineDrives } from "../../schema/task.ts";
import task, { CATCH_UPS, PLACEMENTS_502, PLACEMENTS_DOWN, RATE_WINDOW, ROLE } from "./task.ts";

/** How each scenario of task-0014 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  hourly_catch_ups: async (h) => {
    await h.run("initial", ["sync"]);
    await h.snapshot("cp0");
    for (const { label, checkpoint } of CATCH_UPS) {
      const faults = checkpoint === 1 ? [RATE_WINDOW] : checkpoint === 3 ? [PLACEMENTS_502] : [];
      await h.recreate(ROLE, checkpoint, { faults });
      await h.run(label, ["sync"]);
      await h.snapshot(`cp${checkpoint}`);
    }
  },
  failed_catch_up_made_good: async (h) => {
    await h.run("initial", ["sync"]);
    await h.snapshot("cp0");
    await h.recreate(ROLE, 1, { faults: [PLACEMENTS_DOWN] });
    await h.run("outage", ["sync"], { timeoutMs: 20_000 });
    await h.recreate(ROLE, 1);
    await h.run("rerun", ["sync"]);
    await h.snapshot("cp1");
  },
});
