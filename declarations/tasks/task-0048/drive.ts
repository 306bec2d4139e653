import { defineDrives } from "../../schema/task.ts";
import task, { CUTOVER, LEGACY_NIGHT, NOTE_LOST_ANSWER, PUNCHES_MOVING, ROLE, SIGNED_OUT, SIGNED_OUT_AGAIN } from "./task.ts";

/** How the scenario of task-0048 is driven (Node only: the grader bundles task.ts, never this file). */
export default defineDrives(task, {
  cutover: async (h) => {
    // The old job's last night, as the clocks of Europe are about to go back.
    await h.recreate(ROLE, LEGACY_NIGHT);
    await h.run("legacy", ["sync"]);
    // The cutover, after the repeated hour: the first note's answer is lost after commit, and the
    // session is signed out twice while the notes are filed (each new login carries a new CSRF token); the punch list
    // keeps moving while it is first read, the venues' tablets still sending punches in.
    await h.recreate(ROLE, CUTOVER, { faults: [...PUNCHES_MOVING, NOTE_LOST_ANSWER, SIGNED_OUT, SIGNED_OUT_AGAIN] });
    await h.run("migrate", ["migrate"]);
    await h.run("rerun", ["migrate"]);
    await h.snapshot("end");
  },
});
