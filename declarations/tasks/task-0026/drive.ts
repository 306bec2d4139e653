import { defineDrives } from "../../schema/task.ts";
import task, { BRIEF_503, BURST_429, CHECKS_DRIFT, CUT_PAGE, MAINTENANCE, ROLE } from "./task.ts";

/** How each scenario of task-0026 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  first_sync_through_rate_limit: async (h) => {
    // A rate-limit window, and a page of checks whose connection drops half-way through its body.
    await h.recreate(ROLE, 0, { faults: [BURST_429, CUT_PAGE] });
    await h.run("first_sync", ["sync"]);
    await h.snapshot("cp0");
  },
  catch_up_across_maintenance: async (h) => {
    await h.recreate(ROLE, 0);
    await h.run("first_sync", ["sync"]);
    await h.snapshot("cp0");
    await h.recreate(ROLE, 1, { faults: [MAINTENANCE] });
    await h.run("interrupted_catch_up", ["sync"], { timeoutMs: 30_000 });
    // The night after: Vettly is back but not settled, and answers one more 503 that asks for only a few seconds.
    // Its read of the changed checks meets a list that moves under it: the newest checks go to the head.
    await h.recreate(ROLE, 2, { faults: [BRIEF_503, CHECKS_DRIFT] });
    await h.run("next_catch_up", ["sync"]);
    await h.snapshot("cp2");
  },
});
