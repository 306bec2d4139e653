import { defineDrives } from "../../schema/task.ts";
import task, { BURST_429, ROLE } from "./task.ts";

/** How the scenario of task-0051 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  cutover_to_the_deletions_list: async (h) => {
    // Two nights of the Classic job: the first keeps a roster, the second finds what went.
    await h.recreate(ROLE, 0);
    await h.run("classic_first_night", ["archive-classic"]);
    await h.snapshot("cp0");
    await h.recreate(ROLE, 1);
    await h.run("classic_last_night", ["archive-classic"]);
    await h.snapshot("cp1");
    // A week later `archive` takes over, through a throttled burst.
    await h.recreate(ROLE, 2, { faults: [BURST_429] });
    await h.run("first_archive", ["archive"]);
    await h.snapshot("cp2");
    // A week after that, one more night.
    await h.recreate(ROLE, 3);
    await h.run("next_archive", ["archive"]);
    await h.snapshot("cp3");
  },
});
