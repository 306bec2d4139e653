import { defineDrives } from "../../schema/task.ts";
import task, { NOTE_LOST, ROLE, SESSION_REVOKED, SHIFTS_PAGE_FAULT, WORKERS_DRIFT } from "./task.ts";

/** How each scenario of task-0045 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  pay_week: async (h) => {
    // Monday morning: a page of the rota fails twice, staff files move while they are read, the session ends part-way and the first note's answer is lost.
    await h.recreate(ROLE, 1, { faults: [SHIFTS_PAGE_FAULT, SESSION_REVOKED, NOTE_LOST, WORKERS_DRIFT] });
    await h.snapshot("before");
    await h.run("timesheet", ["timesheet"]);
    await h.snapshot("after");
    // Someone asks Gareth whether it worked: he runs it again.
    await h.run("rerun", ["timesheet"]);
    await h.snapshot("after_rerun");
  },
});
