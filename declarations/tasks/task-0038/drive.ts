import { defineDrives } from "../../schema/task.ts";
import task, { BEFORE_MOVE, BURST_429, RENUMBERED, ROLE } from "./task.ts";

/** How each scenario of task-0038 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  ordinary_night: async (h) => {
    await h.recreate(ROLE, 0);
    await h.snapshot("cp0");
    await h.run("first", ["sync"]);
    await h.recreate(ROLE, 1);
    await h.snapshot("cp1");
    await h.run("night", ["sync"]);
  },
  renumbered_roster: async (h) => {
    await h.recreate(ROLE, BEFORE_MOVE);
    await h.snapshot("before_move");
    await h.run("before_move", ["sync"]);
    await h.recreate(ROLE, RENUMBERED, { faults: [BURST_429] });
    await h.snapshot("after_move");
    await h.run("after_move", ["sync"]);
    // The next night nothing changed: the same roster, in a log epoch of its own so the judge can
    // tell what the quiet run read from what the renumbering night read.
    await h.recreate(ROLE, RENUMBERED);
    await h.run("quiet", ["sync"]);
  },
});
