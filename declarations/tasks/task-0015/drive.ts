import { defineDrives } from "../../schema/task.ts";
import task, { RATE_WINDOW, ROLE } from "./task.ts";

/** How each scenario of task-0015 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  nightly_mirror: async (h) => {
    await h.recreate(ROLE, 1);
    await h.run("sync", ["sync"]);
    await h.snapshot("cp1");
  },
  next_night_rate_limited: async (h) => {
    await h.recreate(ROLE, 1);
    await h.run("first_night", ["sync"]);
    await h.recreate(ROLE, 2, { faults: [RATE_WINDOW] });
    await h.run("next_night", ["sync"]);
    await h.snapshot("cp2");
  },
});
