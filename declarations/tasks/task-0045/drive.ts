import { defineDrives } from "../../schema/task.ts";
import task, { NOTE_LOST, PAY_RUN, ROLE, SESSION_REVOKED, SHIFTS_PAGE_FAULT, WORKERS_DRIFT } from "./task.ts";

/** How each scenario of task-0045 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  pay_week: async (h) => {
    // Monday morning, the rota tidied (some shifts deleted): a page of the rota fails twice, staff files move while they are read, the session ends part-way and the first note's answer is lost.
    await h.recreate(ROLE, PAY_RUN, { faults: [SHIFTS_PAGE_FAULT, SESSION_REVOKED, NOTE_LOST, WORKERS_DRIFT] });
    await h.snapshot("before");
    await h.run("timesheet", ["timesheet"]);
    await h.snapshot("after");
    // Someone asks Gareth whether it worked: he runs it again.
    await h.run("rerun", ["timesheet"]);
    await h.snapshot("after_rerun");
  },
});
