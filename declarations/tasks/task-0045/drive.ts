import { defineDrives } from "../../schema/task.ts";
import task, { NOTE_ANSWER_CUT, NOTE_LOST, PAY_RUN, ROLE, SESSION_REVOKED, SHIFTS_DRIFT, SHIFTS_PAGE_FAULT, WORKERS_DRIFT } from "./task.ts";

/** How each scenario of task-0045 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  pay_week: async (h) => {
    // Monday morning, the rota tidied (some shifts deleted): a page of the rota fails twice, staff files and the rota move while they are read,
    // the session ends part-way, the first note's answer is lost and, later in the notes, one answer's body breaks off on the wire after its status arrived.
    await h.recreate(ROLE, PAY_RUN, { faults: [SHIFTS_PAGE_FAULT, SESSION_REVOKED, NOTE_LOST, WORKERS_DRIFT, SHIFTS_DRIFT, NOTE_ANSWER_CUT] });
    await h.snapshot("before");
    await h.run("timesheet", ["timesheet"]);
    await h.snapshot("after");
    // Someone asks Gareth whether it worked: he runs it again.
    await h.run("rerun", ["timesheet"]);
    await h.snapshot("after_rerun");
  },
});
