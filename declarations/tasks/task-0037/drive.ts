import { defineDrives } from "../../schema/task.ts";
import task, { ATS, ATS_FAULTS, LEGACY } from "./task.ts";

/** How the scenario of task-0037 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  replatform_backfill: async (h) => {
    // Cut-over night: StaffLine as the desk left it, Bullpen under the week's write trouble.
    await h.recreate(LEGACY, 1);
    await h.recreate(ATS, 0, { faults: ATS_FAULTS });
    await h.snapshot("before");
    await h.run("cutover_night", ["migrate"]);
    await h.snapshot("cutover");
    // The next night: StaffLine has moved on (new registrations, people forgotten); Bullpen keeps its copies.
    await h.recreate(LEGACY, 2);
    await h.snapshot("next_start");
    await h.run("next_night", ["migrate"]);
    await h.snapshot("next");
  },
});
