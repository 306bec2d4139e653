import { defineDrives } from "../../schema/task.ts";
import task, { ACTIVITY_429, ROLE } from "./task.ts";

/** How each scenario of task-0013 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  audit_cycle: async (h) => {
    await h.recreate(ROLE, 2, { faults: [ACTIVITY_429] });
    await h.run("audit", ["audit"]);
    await h.snapshot("cp2");
    await h.recreate(ROLE, 2);
    await h.run("rerun", ["audit"]);
    await h.recreate(ROLE, 3);
    await h.run("after_voids", ["audit"]);
    await h.snapshot("cp3");
  },
});
