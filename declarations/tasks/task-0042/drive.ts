import { defineDrives } from "../../schema/task.ts";
import task, { BLOCKS_500, CALENDAR_CHECKPOINT, CALENDARS, ROLE, SATURDAY, TUESDAY } from "./task.ts";

/** How each scenario of task-0042 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  two_mornings: async (h) => {
    await h.recreate(ROLE, CALENDAR_CHECKPOINT, { faults: [BLOCKS_500] });
    await h.snapshot(CALENDARS);
    await h.run("tuesday", ["board", "--date", TUESDAY]);
    await h.run("saturday", ["board", "--date", SATURDAY]);
  },
});
